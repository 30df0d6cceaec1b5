from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignupForm(UserCreationForm):
    """Username + password twice. Django's form already rejects a taken username (any letter
    case), mismatched passwords and passwords that fail AUTH_PASSWORD_VALIDATORS."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)

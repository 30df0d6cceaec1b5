from django.contrib import admin

from accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "balance"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "balance"]  # balances change only through accounts.services

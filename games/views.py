from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """Greets visitors; the lobby replaces the body of this page later."""
    return render(request, "games/home.html")

"""The pages around the live board, as a newcomer reads them: the create form's timer presets, the
lobby's labelled controls, the history's wording, rule-set names in the viewer's language, an
opened record read like a stored replay, the fairness page, and a GET of the leave-queue address."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games.engine import patterns
from games.matchmaking import queue
from games.matchmaking.models import QueueEntry
from games.moderation.models import SiteSettings
from tests.conftest import logged_in_client
from tests.games.history_helpers import finished_hand, won_hand

pytestmark = pytest.mark.django_db


def _get(client: Client, url: str, language: str = "en") -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


# --- the create form -------------------------------------------------------------------------


def test_the_create_form_starts_on_a_named_timer_preset_with_the_pause_under_advanced(
    alice_client: Client,
) -> None:
    html = _get(alice_client, reverse("games:create"))
    assert re.search(r'<option value="normal" selected>', html)
    assert '<option value="custom" selected>' not in html
    presets = json.loads(re.search(r'data-presets="([^"]*)"', html).group(1).replace("&quot;", '"'))
    assert presets["fast"] == [5, 4] and presets["normal"] == [15, 8]
    assert "games/create_form.js" in html
    advanced = re.search(r'<details class="advanced">(.*?)</details>', html, re.S)
    assert advanced is not None and 'name="pause_ms"' in advanced.group(1)
    assert html.count('name="pause_ms"') == 1


def test_an_admins_own_default_timers_start_the_form_on_custom(alice_client: Client) -> None:
    SiteSettings.objects.update_or_create(pk=1, defaults={"turn_seconds": 20, "claim_seconds": 10})
    form = alice_client.get(reverse("games:create")).context["form"]
    assert form["timer"].initial == "custom"
    assert (form["turn_seconds"].initial, form["claim_seconds"].initial) == (20, 10)


# --- the lobby -------------------------------------------------------------------------------


def test_the_lobby_has_one_labelled_rule_set_for_quick_match_and_practice(alice_client: Client) -> None:
    html = _get(alice_client, reverse("games:lobby"))
    play = re.search(r'<form class="lobby-play".*?</form>', html, re.S).group(0)
    assert play.count("<select") == 2 and play.count('name="variant"') == 1
    for control in ("play-variant", "qm-level", "qm-ranked"):
        label = re.search(rf'<label for="{control}"[^>]*>', play)
        assert label is not None and "visually-hidden" not in label.group(0)
    assert 'action="/play/"' in play and 'formaction="/practice/"' in play
    assert html.count('name="variant"') == 2  # the play form's and the table filter's, no more


# --- history and ranks -----------------------------------------------------------------------


def test_history_says_whose_points_a_hand_shows(alice: User, bob: User) -> None:
    finished_hand(alice)
    own = _get(logged_in_client(alice), reverse("history:user", args=["alice"]))
    summary = re.search(r"<summary>(.*?)</summary>", own, re.S).group(1)
    assert "Hand 1:" in summary and "your points" in summary
    assert re.search(r"won\s*<span", summary) is None  # the number is never straight after "won"
    theirs = _get(logged_in_client(bob), reverse("history:user", args=["alice"]))
    assert "alice's points" in re.search(r"<summary>(.*?)</summary>", theirs, re.S).group(1)
    chinese = _get(logged_in_client(alice), reverse("history:user", args=["alice"]), "zh-hans")
    assert "第 1 局：" in re.search(r"<summary>(.*?)</summary>", chinese, re.S).group(1)


def test_history_keeps_the_replay_link_out_of_the_summary_and_names_bots(alice: User) -> None:
    hand = finished_hand(alice)
    html = _get(logged_in_client(alice), reverse("history:user", args=["alice"]))
    for summary in re.findall(r"<summary>(.*?)</summary>", html, re.S):
        assert "<a " not in summary
    assert f'href="/hands/{hand.pk}/replay/"' in html
    assert "alice · Bot 2" in html and ">bot<" not in html


def test_history_names_patterns_in_the_viewers_language_only(alice: User, anon_client: Client) -> None:
    hand = won_hand(alice)
    winning = next(s for s in hand.result["scores"] if s.get("breakdown"))
    entries = [patterns.pattern("two_player", pid) for pid, _value in winning["breakdown"]]
    named = [e for e in entries if e is not None]
    assert named
    url = reverse("history:user", args=["alice"])
    chinese, english = _get(anon_client, url, "zh-hans"), _get(anon_client, url, "en")
    chinese_scores = " ".join(re.findall(r'<p class="score">(.*?)</p>', chinese, re.S))
    for entry in named:
        assert entry.name_zh in chinese and entry.name_en not in chinese_scores
        assert entry.name_en in english


def test_the_ranks_table_names_each_rule_set_in_the_viewers_language(
    alice: User, anon_client: Client
) -> None:
    url = reverse("history:user", args=["alice"])
    english, chinese = _get(anon_client, url, "en"), _get(anon_client, url, "zh-hans")
    ranks_en = re.search(r'<table class="standings ranks-table">.*?</table>', english, re.S).group(0)
    ranks_zh = re.search(r'<table class="standings ranks-table">.*?</table>', chinese, re.S).group(0)
    assert ">Shanghai</a>" in ranks_en and ">Two-player</a>" in ranks_en and ">shanghai<" not in ranks_en
    assert ">上海麻将</a>" in ranks_zh and ">二人麻将</a>" in ranks_zh and "Shanghai" not in ranks_zh


# --- replays, opened records and the fairness page -------------------------------------------


def _hands_data(html: str, script_id: str) -> list[dict]:
    raw = re.search(rf'<script id="{script_id}" type="application/json">(.*?)</script>', html, re.S).group(1)
    data = json.loads(raw)
    return data if isinstance(data, list) else [data]


def test_an_opened_record_reads_like_the_stored_replay(
    alice: User, alice_client: Client, anon_client: Client
) -> None:
    hand = won_hand(alice)
    raw = anon_client.get(f"/api/hands/{hand.pk}/record").content
    upload = SimpleUploadedFile("hand.json", raw)  # opening a record needs a login
    response = alice_client.post(
        reverse("history:open_record"), {"record": upload}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    opened_html = response.content.decode()
    [opened] = _hands_data(opened_html, "replay-hands")
    [stored] = _hands_data(_get(anon_client, reverse("history:replay", args=[hand.pk])), "replay-data")
    assert opened["players"] == stored["players"] == ["alice", "Bot 2"]
    assert opened["text"]["steps"] == stored["text"]["steps"]
    assert opened["text"]["steps"][0] == "The deal"
    assert opened["text"]["info"] == stored["text"]["info"]
    assert opened["text"]["scores"] == stored["text"]["scores"] and opened["text"]["scores"]
    assert opened["text"]["winds"]["1z"] == "East"
    assert "Two-player" in re.search(r"<h2>(.*?)</h2>", opened_html, re.S).group(1)
    assert "two_player" not in re.search(r"<h2>(.*?)</h2>", opened_html, re.S).group(1)
    assert "机器人" not in opened_html
    patterns_shown = re.search(r'<p class="patterns">(.*?)</p>', opened_html, re.S).group(1)
    assert patterns_shown.strip() and "_" not in patterns_shown


def test_the_record_file_input_has_a_label(alice_client: Client) -> None:
    html = _get(alice_client, reverse("history:open_record"))
    assert '<label for="record-file">' in html and 'id="record-file"' in html


def test_the_fairness_page_explains_checking_a_deal_in_both_languages(
    alice: User, anon_client: Client
) -> None:
    assert reverse("fairness") == "/fairness/"
    english, chinese = _get(anon_client, "/fairness/", "en"), _get(anon_client, "/fairness/", "zh-hans")
    assert "sha256sum" in english and "commitment" in english and "/api/hands/ID/record" in english
    assert "公平发牌" in chinese and "承诺值" in chinese and "sha256sum" in chinese
    prose = re.sub(
        r"<pre>.*?</pre>|<[^>]+>", " ", chinese.split("<main", 1)[1].split("</main>")[0], flags=re.S
    )
    assert re.findall(r"[A-Za-z]{3,}(?: [A-Za-z]{2,}){2,}", prose) == []  # every sentence translated
    hand = finished_hand(alice)
    replay = _get(anon_client, reverse("history:replay", args=[hand.pk]))
    assert 'href="/fairness/"' in replay and "docs/fairness.md" not in replay


# --- the quick match queue -------------------------------------------------------------------


def test_a_get_of_the_leave_address_explains_and_leaves_nobody(alice: User, alice_client: Client) -> None:
    queue.join(alice, "shanghai", "bronze")
    response = alice_client.get(reverse("games:play_leave"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302 and response["Location"] == reverse("games:play")
    assert QueueEntry.objects.filter(user=alice).exists()  # a GET changes nothing
    page = alice_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Leave the queue" in page and "To leave the queue" in page
    queue.leave(alice)
    response = alice_client.get(reverse("games:play_leave"), follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert (
        response.status_code == 200 and "You are not in the quick match queue." in response.content.decode()
    )

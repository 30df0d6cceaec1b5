"""The profile's ledger: every balance change with its reason, notes and shares."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from accounts.statement import entries_for, statement
from games.moderation import penalties
from games.moderation.models import Penalty
from games.table import commands
from tests.conftest import logged_in_client, make_user
from tests.games.conftest import play_to_end, two_seated

pytestmark = pytest.mark.django_db


def _escape_match(alice: User, bob: User) -> None:
    """A played shanghai hand, then alice escapes the second one; bob gets a share."""
    table = two_seated(alice, bob, "shanghai", 2)
    commands.add_bot(table.pk, alice, 2)
    commands.add_bot(table.pk, alice, 3)
    commands.start_hand(table.pk, bob)
    now = play_to_end(table.pk)
    commands.continue_play(table.pk, alice)
    commands.continue_play(table.pk, bob)
    commands.leave(table.pk, alice)
    play_to_end(table.pk, now)


def test_every_change_is_listed_with_its_reason_and_the_admins_note(alice: User, bob: User) -> None:
    staff = make_user("mod")
    _escape_match(alice, bob)
    penalties.manual_penalty(alice, 10, staff, note="Slow play test")
    with translation.override("en"):
        rows = statement(entries_for(alice.pk))
        bobs = statement(entries_for(bob.pk))
    titles = [r.title for r in rows]
    assert rows[0].title == "Penalty: set by an admin" and rows[0].delta == -10
    assert rows[0].note == "Slow play test"
    escape = Penalty.objects.get(user=alice, reason="escape")
    assert any(t == "Penalty: left mid-hand" for t in titles)
    assert [r.delta for r in rows if r.title == "Penalty: left mid-hand"] == [-escape.amount]
    assert any(t.startswith("Result of hand 1 at Shanghai table #") for t in titles)
    assert titles[-1] == "Starting points for a new account"
    share = next(r for r in bobs if r.kind == "penalty_share")
    assert share.title == "Your share of alice's penalty (left mid-hand)" and share.delta == escape.amount
    assert share.link and "/replay/" in share.link
    # the balance column runs from the starting grant to the balance now
    assert rows[0].balance_after == alice.profile.__class__.objects.get(user=alice).balance


def test_the_profile_and_the_ledger_page_show_it_in_both_languages(alice: User) -> None:
    staff = make_user("mod")
    penalties.manual_penalty(alice, 10, staff, note="Slow play test")
    penalties.grant_points(alice, 5, staff, note="Sorry for the outage")
    client = logged_in_client(alice)
    profile = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Penalty: set by an admin" in profile and "Slow play test" in profile and "-10" in profile
    assert "Points granted by an admin" in profile and "Sorry for the outage" in profile and "+5" in profile
    page = client.get("/accounts/profile/ledger/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "积分明细" in page and "处罚" in page and "Slow play test" in page and "新账户的初始积分" in page
    assert client.get("/accounts/profile/ledger/?page=abc").status_code == 200  # a bad page: the first


def test_the_ledger_needs_a_login(client: object) -> None:
    response = client.get("/accounts/profile/ledger/")  # type: ignore[attr-defined]
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_leave_confirmation_states_the_exact_penalty(alice: User, bob: User) -> None:
    from games.rendering.fragments import render_table_html
    from games.rendering.presenters import table_context

    table = two_seated(alice, bob, "shanghai", 2)
    commands.add_bot(table.pk, alice, 2)
    commands.add_bot(table.pk, alice, 3)
    commands.start_hand(table.pk, bob)
    context = table_context(table.pk, alice)
    assert context["table"]["my_escape_penalty"] == table.escape_penalty == 100
    html = render_table_html(context, "en")
    assert "it costs you 100 points" in html
    assert "将扣除您 100 积分" in render_table_html(context, "zh-hans")
    assert table_context(table.pk, None)["table"]["my_escape_penalty"] is None

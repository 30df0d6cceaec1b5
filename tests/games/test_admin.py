"""The moderation admin: staff only; close, kick, make private, penalise, reverse, grant, ban; audited."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import LedgerEntry
from games.history.models import Rating
from games.models import Hand, Seat, Table
from games.moderation import live_tables
from games.moderation.models import AdminAuditLog, Ban, Penalty, PenaltyReversal
from games.sockets import presence
from games.table import commands, errors, opening, store
from games.table import presence as table_presence
from tests.conftest import logged_in_client
from tests.games.conftest import balance, bot_table, play_to_end, two_seated

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_superuser("root", "root@example.com", "green-dragon-42")


@pytest.fixture
def staff_client(staff: User) -> Client:
    return logged_in_client(staff)


def action(client: Client, model: str, name: str, ids: list[int]) -> None:
    url = reverse(f"admin:games_{model}_changelist")
    response = client.post(url, {"action": name, "_selected_action": [str(i) for i in ids]})
    assert response.status_code == 302, response.content[:500]


def test_non_staff_are_sent_to_the_admin_login(alice_client: Client, anon_client: Client) -> None:
    for client in (alice_client, anon_client):
        for name in ("games_table", "games_penalty", "accounts_ledgerentry", "games_adminauditlog"):
            response = client.get(reverse(f"admin:{name}_changelist"))
            assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_staff_see_every_moderation_page(staff_client: Client, alice: User) -> None:
    table = bot_table(alice, "two_player")
    presence.heartbeat()
    table_presence.connect(table.pk, alice, presence.registered())  # a socket, for the sockets page
    for name in (
        "games_table",
        "games_seat",
        "games_penalty",
        "games_penaltyreversal",
        "games_ban",
        "accounts_ledgerentry",
        "games_rating",
        "games_serverstart",
        "games_serverprocess",
        "games_opensocket",
        "games_adminauditlog",
    ):
        assert staff_client.get(reverse(f"admin:{name}_changelist")).status_code == 200, name
    sockets = staff_client.get(reverse("admin:games_opensocket_changelist")).content.decode()
    assert "alice" in sockets
    html = staff_client.get(reverse("admin:games_table_change", args=[table.pk])).content.decode()
    assert "alice" in html
    assert staff_client.get(reverse("admin:games_sitesettings_changelist")).status_code == 302


def test_close_a_table_mid_hand_settles_it_as_drawn_without_blame(staff_client: Client, alice: User) -> None:
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    a0 = balance(alice)
    action(staff_client, "table", "close_tables", [table.pk])
    table.refresh_from_db()
    hand = Hand.objects.get(table=table)
    assert table.status == "closed" and hand.status == "over"
    assert hand.result["by"] == "admin_closed" and hand.settlement["payments"] == [0, 0, 0, 0]
    assert balance(alice) == a0 and not Penalty.objects.exists()
    assert not Rating.objects.exists()  # a closed hand says nothing about skill
    assert not Seat.objects.filter(table=table, user__isnull=False).exists()
    log = AdminAuditLog.objects.get(action="close_table")
    assert log.object_id == str(table.pk) and log.user.username == "root"
    # The replay of a closed hand is available and says so.
    assert staff_client.get(f"/api/hands/{hand.pk}/replay").json()["closed_by_admin"] is True


def test_kick_mid_hand_frees_the_seat_after_the_hand_without_penalty(
    staff_client: Client, alice: User, bob: User
) -> None:
    table = two_seated(alice, bob)
    commands.start_hand(table.pk, alice)
    seat = Seat.objects.get(table=table, user=bob)
    action(staff_client, "seat", "kick_players", [seat.pk])
    seat.refresh_from_db()
    assert seat.left and not Penalty.objects.exists() and not Ban.objects.exists()
    assert AdminAuditLog.objects.filter(action="kick").count() == 1
    # Between hands a kick frees the seat at once.
    other = bot_table(bob, "shanghai")
    live_tables.kick(other.pk, bob)
    assert not Seat.objects.filter(table=other, user=bob).exists()


def test_make_private(staff_client: Client, alice: User) -> None:
    table = bot_table(alice, "shanghai")
    action(staff_client, "table", "make_private", [table.pk])
    assert Table.objects.get(pk=table.pk).public is False
    assert AdminAuditLog.objects.filter(action="make_private", object_id=str(table.pk)).exists()


def test_manual_penalty_reversal_and_grant_through_the_admin(staff_client: Client, alice: User) -> None:
    a0 = balance(alice)
    response = staff_client.post(
        reverse("admin:games_penalty_add"), {"user": alice.pk, "amount": 40, "hand": "", "note": "spam"}
    )
    assert response.status_code == 302, response.content[:800]
    penalty = Penalty.objects.get(user=alice)
    assert (penalty.reason, penalty.amount, penalty.created_by.username) == ("manual", 40, "root")
    assert balance(alice) == a0 - 40
    action(staff_client, "penalty", "reverse_penalties", [penalty.pk])
    action(staff_client, "penalty", "reverse_penalties", [penalty.pk])  # a second time does nothing
    assert PenaltyReversal.objects.count() == 1 and balance(alice) == a0
    response = staff_client.post(
        reverse("admin:accounts_ledgerentry_add"), {"user": alice.pk, "delta": 25, "note": "gift"}
    )
    assert response.status_code == 302, response.content[:800]
    assert balance(alice) == a0 + 25
    assert LedgerEntry.objects.filter(user=alice, kind="admin_grant", delta=25).exists()
    actions = list(AdminAuditLog.objects.order_by("created").values_list("action", flat=True))
    assert actions == ["manual_penalty", "reverse_penalty", "grant_points"]
    # Penalties are never deleted or edited in the admin.
    assert (
        staff_client.post(
            reverse("admin:games_penalty_delete", args=[penalty.pk]), {"post": "yes"}
        ).status_code
        == 403
    )


def test_ban_by_hand_blocks_sitting_and_is_audited(staff_client: Client, alice: User, bob: User) -> None:
    response = staff_client.post(
        reverse("admin:games_ban_add"), {"user": alice.pk, "reason": "abuse", "minutes": 30}
    )
    assert response.status_code == 302, response.content[:800]
    ban = Ban.objects.get(user=alice)
    assert ban.manual and (ban.ends - ban.starts).total_seconds() == 1800
    table = opening.create_table(bob, "shanghai")
    with pytest.raises(errors.ServiceError) as e:
        commands.sit(table.pk, alice, 0)
    assert e.value.code == "banned"
    action(staff_client, "ban", "lift_bans", [ban.pk])
    commands.sit(table.pk, alice, 0)
    assert list(AdminAuditLog.objects.order_by("created").values_list("action", flat=True)) == [
        "ban",
        "lift_ban",
    ]


def test_site_settings_are_edited_without_a_deploy_and_audited(staff_client: Client, alice: User) -> None:
    data = {
        "starting_balance": 500,
        "escape_multiplier": 20,
        "two_player_escape_multiplier": 5,
        "turn_seconds": 20,
        "claim_seconds": 9,
        "grace_seconds": 60,
        "rating_min_hands": 3,
        "spectator_delay_seconds": 120,
    }
    response = staff_client.post(reverse("admin:games_sitesettings_add"), data)
    assert response.status_code == 302, response.content[:800]
    table = opening.create_table(alice, "two_player")
    assert (table.turn_seconds, table.claim_seconds, table.grace_seconds) == (20, 9, 60)
    table.base = 2
    assert table.escape_penalty == 10
    assert AdminAuditLog.objects.filter(action="add", model="games.SiteSettings").exists()


def test_staff_do_not_see_the_salt_of_a_hand_in_progress(staff_client: Client, alice: User) -> None:
    """docs/fairness.md: the seed and setup (with the salt) stay hidden while the hand is played."""
    from tests.games.history_helpers import finished_hand, running_hand

    running = running_hand(alice)
    page = staff_client.get(reverse("admin:games_hand_change", args=[running.pk])).content.decode()
    assert running.setup["salt"] not in page and str(running.seed) not in page
    done = finished_hand(alice)
    page = staff_client.get(reverse("admin:games_hand_change", args=[done.pk])).content.decode()
    assert done.setup["salt"] in page


def test_after_a_close_mid_hand_its_players_see_the_hand_over_with_only_their_own_tiles_open(
    alice: User, bob: User
) -> None:
    """The close settles the hand as drawn and frees the seats: each former player's board shows
    the hand as over (no whose-turn line, no countdown) from their own seat, their own last hand
    face up and the other seat's concealed tiles still hidden, in the view and in the page."""
    from games.rendering.fragments import render_table_html
    from games.rendering.presenters import json_view, table_context

    table = two_seated(alice, bob)
    commands.start_hand(table.pk, alice)
    before = store.load(Table.objects.get(pk=table.pk)).state
    assert before is not None
    live_tables.close_table(table.pk)
    for (index, user), shared in itertools.product(enumerate((alice, bob)), (False, True)):
        context = table_context(table.pk, user, shared)  # a page load, and a socket's frame
        view = context["view"]
        assert view["phase"] == "over" and view["turn"] is None and not view["my_move"]
        assert view["result"]["by"] == "admin_closed"
        assert context["table"]["deadline_ms"] is None
        mine, other = view["seats"][index], view["seats"][1 - index]
        assert len(mine["hand"]) == before.players[index].hand_size
        assert "hand" not in other and "drawn" not in other  # never the other player's tiles
        assert "waits" not in view
        sent = json_view(context)["hand"]["seats"]
        assert [i for i, seat in enumerate(sent) if "hand" in seat] == [index]
        html = render_table_html(context, "en")
        assert "to play" not in html and "Your turn" not in html and 'class="countdown"' not in html
        assert "Hand over: closed by an admin, drawn" in html.split('id="board"')[1]
        board = html.split('id="board"')[1].split('id="settlement"')[0]
        sections = board.split('<section class="seat ')[1:]
        own = next(s for s in sections if f'data-seat="{index}"' in s)
        theirs = next(s for s in sections if f'data-seat="{1 - index}"' in s)
        assert "pos-bottom" in own and "concealed opened" in own
        assert "concealed opened" not in theirs
        assert 'id="settlement"' in html
    # A spectator still sees every concealed hand face down.
    spectator = table_context(table.pk, None)["view"]
    assert spectator["phase"] == "over" and not any("hand" in seat for seat in spectator["seats"])


def test_a_player_who_left_an_open_table_sees_it_as_everyone_does(alice: User, bob: User) -> None:
    """Only a closed table keeps a freed player's last hand at the bottom: at an open table the
    freed seat is anybody's, and the board must not call it theirs."""
    from games.rendering.fragments import render_table_html
    from games.rendering.presenters import table_context

    table = two_seated(alice, bob)
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    commands.leave(table.pk, bob)
    assert not Seat.objects.filter(table=table, user=bob).exists()
    context = table_context(table.pk, bob)
    assert context["viewer"]["seat"] is None and context["played"] is None
    html = render_table_html(context, "en")
    bottom = html.split('<section class="seat pos-bottom')[1].split("</section>")[0]
    assert 'data-seat="1"' not in bottom  # drawn as a spectator sees it, from seat 0

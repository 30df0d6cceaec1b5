"""Table flows through the service functions (RULES §1), on a fake clock."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from common import caches
from games.clock.ticks import drive_table_until_idle
from games.engine.actions import Action, legal_actions
from games.models import Hand, HandAction, ScoreEntry, Seat, Table
from games.moderation.models import Penalty
from games.rendering.fragments import render_table_html
from games.rendering.presenters import table_context
from games.table import commands, hand_log, opening, play, presence, store, timers, timing
from games.table.errors import ServiceError
from games.table.seating import INSUFFICIENT_POINTS
from tests.games.conftest import (
    after_pause,
    balance,
    bot_table,
    hand_over,
    play_to_end,
    set_balance,
    snapshot,
    state_of,
    two_seated,
)

pytestmark = pytest.mark.django_db


def seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).order_by("index"))


def test_create_table_makes_empty_seats(alice: User) -> None:
    table = opening.create_table(alice, "two_player")
    assert [s.index for s in seats(table)] == [0, 1]
    assert table.status == "waiting" and table.stake_state == "unset" and table.version == 0


@pytest.mark.parametrize("variant", ["mahjong", "", None])
def test_create_table_rejects_unknown_variant(alice: User, variant: object) -> None:
    with pytest.raises(ServiceError) as e:
        opening.create_table(alice, variant)  # type: ignore[arg-type]
    assert e.value.code == "unknown_variant"


def test_create_table_rejects_unknown_options(alice: User) -> None:
    with pytest.raises(ServiceError) as e:
        opening.create_table(alice, "shanghai", options={"nonsense": 1})
    assert e.value.code == "bad_option"


def test_first_to_sit_chooses_the_stake_and_others_accept(alice: User, bob: User) -> None:
    table = opening.create_table(alice, "two_player")
    commands.sit(table.pk, bob, 1)
    commands.sit(table.pk, alice, 0)
    with pytest.raises(ServiceError) as e:
        commands.set_stake(table.pk, alice, 5)
    assert e.value.code == "not_stake_chooser"
    commands.set_stake(table.pk, bob, 5)
    table.refresh_from_db()
    assert (table.base, table.stake_state) == (5, "proposed")
    commands.accept_stake(table.pk, alice)
    table.refresh_from_db()
    assert table.stake_state == "fixed"
    with pytest.raises(ServiceError) as e:
        commands.set_stake(table.pk, bob, 6)
    assert e.value.code == "stake_fixed"


def test_stake_resets_when_the_setter_leaves(alice: User, bob: User, carol: User) -> None:
    table = opening.create_table(alice, "shanghai")
    commands.sit(table.pk, alice, 0)
    commands.sit(table.pk, bob, 1)
    commands.sit(table.pk, carol, 2)
    commands.set_stake(table.pk, alice, 4)
    commands.accept_stake(table.pk, bob)
    commands.stand(table.pk, alice)
    table.refresh_from_db()
    assert table.base is None and table.stake_state == "unset" and table.stake_setter is None
    assert table.stake_chooser in (bob, carol)
    assert not any(s.accepted for s in seats(table))


def test_next_seated_person_chooses_when_the_chooser_leaves_before_setting(
    alice: User, bob: User, carol: User
) -> None:
    table = opening.create_table(alice, "shanghai")
    commands.sit(table.pk, alice, 0)
    commands.sit(table.pk, bob, 2)
    commands.sit(table.pk, carol, 1)
    commands.stand(table.pk, alice)
    table.refresh_from_db()
    assert table.stake_chooser == bob  # sat down before carol


def test_yihua_needs_an_even_stake(alice: User) -> None:
    table = opening.create_table(alice, "yihua")
    commands.sit(table.pk, alice, 0)
    for bad in (3, 0, -2, "x", None, 10**9):
        with pytest.raises(ServiceError) as e:
            commands.set_stake(table.pk, alice, bad)
        assert e.value.code == "bad_stake"
    commands.set_stake(table.pk, alice, 4)


def test_bots_accept_and_a_full_accepted_table_is_fixed(alice: User) -> None:
    table = bot_table(alice)
    assert table.stake_state == "fixed"
    assert all(s.accepted for s in seats(table))


def test_start_needs_full_seats(alice: User) -> None:
    table = bot_table(alice, bots=2)
    before = snapshot(table.pk)
    with pytest.raises(ServiceError) as e:
        commands.start_hand(table.pk, alice)
    assert e.value.code == "seats_empty"
    assert snapshot(table.pk) == before


def test_start_needs_everyone_to_accept(alice: User, bob: User) -> None:
    table = opening.create_table(alice, "two_player")
    commands.sit(table.pk, alice, 0)
    commands.set_stake(table.pk, alice, 1)
    commands.sit(table.pk, bob, 1)
    with pytest.raises(ServiceError) as e:
        commands.start_hand(table.pk, alice)
    assert e.value.code == "stake_not_accepted"


def test_sit_needs_fifty_times_the_base(alice: User, bob: User) -> None:
    table = bot_table(alice, "shanghai", base=4, bots=2)
    set_balance(bob, 199)
    with pytest.raises(ServiceError) as e:
        commands.sit(table.pk, bob, 3)
    assert (e.value.code, e.value.message) == ("insufficient_points", INSUFFICIENT_POINTS)


def test_sit_errors(alice: User, bob: User) -> None:
    table = bot_table(alice, "two_player")
    with pytest.raises(ServiceError) as e:
        commands.sit(table.pk, bob, 1)
    assert e.value.code == "seat_taken"
    with pytest.raises(ServiceError) as e:
        commands.sit(table.pk, alice, 1)
    assert e.value.code == "already_seated"
    with pytest.raises(ServiceError) as e:
        commands.sit(table.pk, bob, 7)
    assert e.value.code == "bad_seat"


def test_full_hand_to_settlement_then_continue(alice: User) -> None:
    table = bot_table(alice, "shanghai", base=1)
    start = balance(alice)
    commands.start_hand(table.pk, alice)
    table.refresh_from_db()
    assert table.status == "playing" and table.hand is not None
    play_to_end(table.pk)
    table.refresh_from_db()
    hand = table.hand
    assert hand.status == Hand.Status.OVER
    entries = list(ScoreEntry.objects.filter(hand=hand).order_by("seat"))
    assert len(entries) == 4
    assert balance(alice) == start + entries[0].delta == entries[0].balance_after
    assert hand.settlement["payments"][0] == entries[0].delta
    context = table_context(table, alice)
    assert context["table"]["phase"] == "hand_over"
    assert {"type": "continue"} in context["legal"]
    assert all(h for h in context["table"]["last_result"]["hands"])  # every hand opened
    # The log is the truth: the stored actions replay to the final state.
    assert HandAction.objects.filter(hand=hand).count() == hand.actions_count > 0
    commands.continue_play(table.pk, alice)
    table.refresh_from_db()
    assert table.hand.number == 2 and table.hand.status == Hand.Status.PLAYING
    assert table.hand.match_id == hand.match_id
    assert table.hand.dealer == hand.result["next_dealer"]


@pytest.mark.parametrize("variant", ["shanghai", "yihua", "cantonese", "tianjin", "two_player"])
def test_every_variant_plays_to_the_end(alice: User, variant: str) -> None:
    table = bot_table(alice, variant, base=2)
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    table.refresh_from_db()
    assert table.hand.status == Hand.Status.OVER
    assert sum(ScoreEntry.objects.filter(hand=table.hand).values_list("delta", flat=True)) == sum(
        table.hand.settlement["payments"]
    )


def test_all_bot_table_goes_on_by_itself(alice: User) -> None:
    table = bot_table(alice, "two_player")
    commands.stand(table.pk, alice)  # she set the stake: it is reset
    commands.add_bot(table.pk, alice, 0)
    table.refresh_from_db()
    assert table.stake_state == "unset" and table.stake_chooser is None
    # Nobody is seated: the owner sets the stake and starts a table of bots for spectators.
    assert {"type": "set_stake", "base": 1, "even": False} in table_context(table, alice)["legal"]
    commands.set_stake(table.pk, alice, 1)
    commands.start_hand(table.pk, alice)
    now = play_to_end(table.pk)
    first = Table.objects.get(pk=table.pk).hand
    drive_table_until_idle(table.pk, now, until=lambda t: t.hand_id != first.pk)
    table.refresh_from_db()
    assert table.hand.number == 2 and table.hand.ended is None


def test_insufficient_points_removes_the_player(alice: User) -> None:
    table = bot_table(alice, "shanghai", base=2)
    commands.start_hand(table.pk, alice)
    set_balance(alice, 100)  # 50 × 2 = 100: any loss puts her below
    now = play_to_end(table.pk)
    table.refresh_from_db()
    if balance(alice) >= 100:  # she won or nobody paid: lose some points on the next hand
        commands.continue_play(table.pk, alice)
        set_balance(alice, 99)
        # still settles; then she is removed
        play_to_end(table.pk, now)
        table.refresh_from_db()
    assert seats(table)[0].user is None
    assert table_context(table, alice)["table"]["message"] == INSUFFICIENT_POINTS
    assert table.stake_state == "unset"  # she had set the stake: it is reset (§1.2)


def test_escape_penalty_once_shared_and_seat_freed_after_the_hand(alice: User, bob: User) -> None:
    table = two_seated(alice, bob, "shanghai", 2)
    commands.add_bot(table.pk, alice, 2)
    commands.add_bot(table.pk, alice, 3)
    commands.start_hand(table.pk, bob)
    a0, b0 = balance(alice), balance(bob)
    commands.leave(table.pk, alice)
    assert (balance(alice), balance(bob)) == (a0, b0)  # paid into the hand's settlement
    with pytest.raises(ServiceError) as e:
        commands.leave(table.pk, alice)
    assert e.value.code == "already_left"
    seat = seats(table)[0]
    assert seat.left and seat.user == alice  # a bot finishes her hand
    with pytest.raises(ServiceError):
        commands.act(table.pk, alice, {"type": "pass"})
    play_to_end(table.pk)
    assert Penalty.objects.filter(user=alice).count() == 1
    assert seats(table)[0].user is None
    entry = ScoreEntry.objects.get(hand=Table.objects.get(pk=table.pk).hand, seat=0)
    assert entry.user == alice  # she still takes that hand's result
    assert balance(alice) == a0 - 100 + entry.delta  # and 50 × base, all to the only other person
    assert balance(bob) == b0 + 100 + ScoreEntry.objects.get(hand=entry.hand, seat=1).delta
    # ...and the settlement still names her, though her seat is empty now
    assert entry.hand.settlement["names"] == ["alice", "bob", None, None]


def test_disconnect_past_grace_is_an_escape(alice: User, bob: User) -> None:
    table = two_seated(alice, bob)
    commands.start_hand(table.pk, alice)
    presence.connect(table.pk, bob)
    presence.disconnect(table.pk, bob)
    b0 = balance(bob)
    later = timezone.now() + timedelta(seconds=121)
    drive_table_until_idle(table.pk, later, until=lambda t: Penalty.objects.exists() or hand_over(t))
    penalty = Penalty.objects.filter(user=bob).first()
    if penalty is not None:  # the hand may end first (then there is nothing to escape)
        assert penalty.reason == "disconnect"
        play_to_end(table.pk, later)
        penalty.refresh_from_db()
        assert penalty.amount == 13
        result = ScoreEntry.objects.get(hand=penalty.hand, user=bob).delta
        assert balance(bob) == b0 + result - 13


def test_reconnect_within_grace_is_no_escape(alice: User, bob: User) -> None:
    table = two_seated(alice, bob)
    commands.start_hand(table.pk, alice)
    presence.connect(table.pk, bob)
    presence.disconnect(table.pk, bob)
    presence.connect(table.pk, bob)
    play_to_end(table.pk, timezone.now() + timedelta(seconds=500))
    assert not Penalty.objects.exists()


def test_refused_actions_change_nothing(alice: User, bob: User) -> None:
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    table.refresh_from_db()
    before = snapshot(table.pk)
    cases = [
        (bob, table.version, {"type": "discard", "tile": "1m"}, "not_seated"),
        (alice, table.version - 1, {"type": "start"}, "stale_version"),
        (alice, table.version, {"type": "fly"}, "bad_action"),
        (alice, table.version, {"type": "discard", "tile": "9x"}, "bad_action"),
        (alice, table.version, {"type": "discard", "tile": "1m", "evil": 1}, "bad_action"),
        (alice, table.version, "discard", "bad_action"),
        (alice, "7", {"type": "pass"}, "bad_version"),
        (None, table.version, {"type": "pass"}, "login_required"),
    ]
    for user, version, action, code in cases:
        with pytest.raises(ServiceError) as e:
            commands.perform(table.pk, user, version, action)
        assert e.value.code == code, (action, e.value)
    assert snapshot(table.pk) == before


def alices_turn(table: Table) -> bool:
    state = state_of(table.pk)
    return state is not None and state.phase == "turn" and state.turn == 0


def test_illegal_hand_action_is_refused(alice: User) -> None:
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    presence.connect(table.pk, alice)
    # Wait for alice's own turn (she is connected, so the clock waits for her).
    drive_table_until_idle(table.pk, until=alices_turn)
    table.refresh_from_db()
    state = state_of(table.pk)
    assert state is not None
    held = {a.tile for a in legal_actions(state, 0) if a.type == "discard"}
    missing = next(t for t in range(27) if t not in held)
    from games.engine.tiles import name

    before = snapshot(table.pk)
    with pytest.raises(ServiceError) as e:
        commands.perform(
            table.pk, alice, table.version, {"type": "discard", "tile": name(missing)}, after_pause(table)
        )
    assert e.value.code in {"illegal_action", "not_in_hand"}
    assert snapshot(table.pk) == before


def test_stale_timeout_is_a_no_op(alice: User) -> None:
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    table.refresh_from_db()
    assert timers.timeout(table.pk, table.version - 1, timezone.now() + timedelta(hours=1)) is False
    assert snapshot(table.pk)[0] == table.version


def test_human_timeout_plays_the_auto_action(alice: User) -> None:
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    presence.connect(table.pk, alice)
    play_to_end(table.pk)
    actors = set(HandAction.objects.filter(seat=0).values_list("actor", flat=True))
    assert actors <= {"timeout"} and HandAction.objects.filter(actor="bot").exists()


def test_a_dropped_socket_has_a_window_to_come_back_before_its_turn_is_played(alice: User) -> None:
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    ctx = store.load(Table.objects.get(pk=table.pk))
    seat, start = ctx.seats[0], ctx.table.act_since
    assert start is not None and ctx.state is not None and ctx.state.phase == "turn"
    timer = start + timedelta(seconds=ctx.table.turn_seconds)
    seat.connections = 1
    assert timing.seat_due(ctx, seat) == timer
    seat.connections = 0
    seat.disconnected_at = start + timedelta(seconds=4)  # a reload 4 s into the turn
    assert timing.seat_due(ctx, seat) == seat.disconnected_at + timedelta(seconds=timing.RECONNECT_WINDOW)
    seat.disconnected_at = start - timedelta(minutes=1)  # gone since an earlier decision
    assert timing.seat_due(ctx, seat) == start + timedelta(seconds=timing.DISCONNECTED_DELAY)
    seat.disconnected_at = timer - timedelta(seconds=1)  # dropped just before the timer runs out
    assert timing.seat_due(ctx, seat) == timer


def find_claim(table_id: int, seat: int) -> bool:
    state = state_of(table_id)
    return (
        state is not None
        and state.phase == "claim"
        and any(a.type != "pass" for a in legal_actions(state, seat))
    )


def table_at_a_claim(alice: User, process_id: int | None = None) -> tuple[Table, Action, datetime]:
    """A shanghai table (alice + 3 bots, alice's socket on `process_id`) driven on a fake clock
    until alice may claim a discard: (the table, her first claim, the fake time). A claim for
    her turns up within a few hands; skipped if none does in eight."""
    for _ in range(8):
        table = bot_table(alice, "shanghai", base=1)
        commands.start_hand(table.pk, alice)
        socket_id = presence.connect(table.pk, alice, process_id).socket_id
        now = drive_table_until_idle(table.pk, until=lambda t: find_claim(t.pk, 0) or hand_over(t))
        if not hand_over(Table.objects.get(pk=table.pk)):
            break
        presence.disconnect(table.pk, alice, True, socket_id)  # (only the table returned has her socket)
        commands.leave(table.pk, alice)
    else:
        pytest.skip("no claim came up")
    state = state_of(table.pk)
    assert state is not None
    claim = next(a for a in legal_actions(state, 0) if a.type != "pass")
    table.refresh_from_db()
    return table, claim, now


def test_claim_is_held_for_the_undo_window(alice: User) -> None:
    table, claim, now = table_at_a_claim(alice)
    count = snapshot(table.pk)[1]
    commands.perform(table.pk, alice, table.version, claim.to_json())
    assert snapshot(table.pk)[1] == count  # held, not applied
    context = table_context(table.pk, alice)
    assert context["table"]["seats"][0]["pending"] == claim.to_json()
    assert context["legal"][-1] == {"type": "undo"}
    assert context["view"]["my_move"] is False
    commands.undo(table.pk, alice)
    assert seats(table)[0].pending is None
    table.refresh_from_db()
    commands.perform(table.pk, alice, table.version, claim.to_json())
    table.refresh_from_db()
    timers.timeout(table.pk, table.revision, now + timedelta(seconds=2))
    last = HandAction.objects.filter(hand=table.hand, seat=0).order_by("-seq").first()
    assert last is not None and last.action == claim.to_json() and last.actor == "human"


def test_every_discard_pauses_and_hides_the_next_draw(alice: User, bob: User) -> None:
    table = bot_table(alice, "shanghai")
    commands.start_hand(table.pk, alice)
    presence.connect(table.pk, alice)
    drive_table_until_idle(table.pk, until=alices_turn)
    table.refresh_from_db()
    state = state_of(table.pk)
    discard = next(a for a in legal_actions(state, 0) if a.type == "discard")
    commands.perform(table.pk, alice, table.version, discard.to_json(), after_pause(table))
    table.refresh_from_db()
    # paused now; its end is written nowhere: nothing is due before it is over
    assert timing.paused(table, timezone.now())
    assert table.deadline is not None and table.deadline > table.pause_until
    for viewer in (alice, bob, None):
        view = table_context(table.pk, viewer)["view"]
        assert view["phase"] == "claim" and view["turn"] is None
        assert view["wall_left"] == state.wall_left
        # seat 1 has drawn, but the board still shows its hand as before (13 tiles less its melds')
        assert view["seats"][1]["hand_count"] == state.players[1].hand_size


def test_a_state_is_extended_from_an_older_cached_one_as_a_replay_would_build_it(alice: User) -> None:
    """A process that saw a hand a few actions ago (the clock, say) applies the actions logged
    since instead of replaying the whole hand; both give the same state."""
    table = bot_table(alice)
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    hand = Table.objects.get(pk=table.pk).hand
    assert hand is not None and hand.actions_count > 10
    count = hand.actions_count
    replayed = hand_log.replay_hand(hand, table.variant)
    caches.clear_all()
    older = Hand(pk=hand.pk, seed=hand.seed, setup=hand.setup, actions_count=count - 7)
    hand_log.remember_state((hand.pk, count - 7), hand_log.replay_hand(older, table.variant))
    assert hand_log.extend_hand(hand, table.variant) == replayed
    caches.clear_all()
    assert hand_log.extend_hand(hand, table.variant) is None  # nothing cached: replay instead
    far = Hand(pk=hand.pk, seed=hand.seed, setup=hand.setup, actions_count=0)
    hand_log.remember_state((hand.pk, 0), hand_log.replay_hand(far, table.variant))
    expected = replayed if count <= hand_log.EXTEND_LIMIT else None
    assert hand_log.extend_hand(hand, table.variant) == expected


def _two_player_self_draw(alice: User, monkeypatch: pytest.MonkeyPatch, options: dict | None) -> Table:
    """A two_player table (base 2) whose first hand ends with seat 1 (a bot) winning by self-draw:
    the hand's seed and the first dealer are fixed, bots and 托管 play the rest."""
    monkeypatch.setattr(play.secrets, "randbits", lambda n: 2)
    monkeypatch.setattr(play.secrets, "randbelow", lambda n: 0)
    # no salt: the deal comes from the seed alone, as for hands dealt before commitments
    monkeypatch.setattr(play, "new_salt", lambda: None)
    table = opening.create_table(alice, "two_player", options=options)
    commands.sit(table.pk, alice, 0)
    commands.set_stake(table.pk, alice, 2)
    commands.add_bot(table.pk, alice, 1, "easy")  # the fixed deal and this bot end in its self-draw
    commands.start_hand(table.pk, alice)
    play_to_end(table.pk)
    table.refresh_from_db()
    assert table.hand.result["by"] == "self_draw" and table.hand.result["winners"] == [1]
    return table


@pytest.mark.parametrize(("options", "times"), [(None, 3), ({"self_draw_multiplier": 1}, 1)])
def test_a_two_player_self_draw_settles_value_times_multiplier_times_base(
    alice: User, monkeypatch: pytest.MonkeyPatch, options: dict | None, times: int
) -> None:
    # RULES §6.3 (seed 004 §三 "自摸：(基本分)×3方×底分"); the house rule 1 pays every win alike
    table = _two_player_self_draw(alice, monkeypatch, options)
    value = table.hand.result["scores"][0]["value"]
    assert value == 12
    amount = value * times * 2
    # against a bot the payments are practice: shown, never applied (docs/history.md)
    assert table.hand.settlement["practice"] == [-amount, amount]
    assert table.hand.settlement["payments"] == [0, 0]
    entries = list(ScoreEntry.objects.filter(hand=table.hand).order_by("seat"))
    assert [e.delta for e in entries] == [0, 0]
    # the settlement screen shows the value and the corrected payments
    context = table_context(table, alice)
    assert context["table"]["last_result"]["practice"] == [-amount, amount]
    settlement = render_table_html(context, "en").split('id="settlement"')[1].split("</section>")[0]
    assert '<strong class="value">12</strong>' in settlement
    assert f"练习 -{amount}<" in settlement and f"练习 +{amount}<" in settlement  # shown as practice


@pytest.mark.parametrize("bad", [0, 4, 13])
def test_create_table_refuses_a_self_draw_multiplier_out_of_range(alice: User, bad: int) -> None:
    with pytest.raises(ServiceError) as e:
        opening.create_table(alice, "two_player", options={"self_draw_multiplier": bad})
    assert e.value.code == "bad_option" and "self_draw_multiplier" in e.value.message
    assert not Table.objects.exists()


def test_the_commands_offered_to_each_kind_of_viewer_are_those_its_who_allows_in_order() -> None:
    """`legal` lists the table commands from a table made once per `Who.allowed` set: the same
    commands, in the same order, as testing each command's `who` would give, for every set
    `Who.allowed` answers (seated; the owner, not seated; anybody else signed in)."""
    from games.table.commands import COMMANDS, OFFERED_TO, Who

    seated = frozenset(Who)
    owner = frozenset({Who.ANYONE, Who.MANAGER})
    signed_in = frozenset({Who.ANYONE})
    assert set(OFFERED_TO) == {seated, owner, signed_in}
    for allowed in (seated, owner, signed_in):
        expected = [c.name for c in COMMANDS.values() if c.who in allowed]
        assert [c.name for c in OFFERED_TO[allowed]] == expected
    assert len(OFFERED_TO[signed_in]) < len(OFFERED_TO[owner]) < len(OFFERED_TO[seated])

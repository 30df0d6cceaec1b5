"""Tournaments on a fake clock: sign-up and check-in (and their refusals), the clock's rounds,
duplicate deals from the committed round salt, standings, the organiser's actions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import Profile
from common import settings_store
from games.engine.record import verify_record
from games.history import replays
from games.history.queries import spectator_delay_of
from games.models import Hand, Table
from games.moderation import live_tables
from games.moderation.models import AdminAuditLog
from games.tournaments import deals, duplicate, organising, pairing, services
from games.tournaments.access import TournamentError
from games.tournaments.models import Tournament, TournamentPlayer, TournamentTable
from games.tournaments.standings import deal_scores, finished_hands, standings
from tests.conftest import make_user
from tests.games.tournaments.helpers import entrants, new_tournament, organiser, play_round

pytestmark = pytest.mark.django_db


def test_only_organisers_create_and_bad_settings_are_refused() -> None:
    staff = organiser()
    with pytest.raises(TournamentError) as e:
        new_tournament(make_user("someone"))
    assert e.value.code == "not_organiser"
    for bad, code in [
        ({"variant": "nope"}, "unknown_variant"),
        ({"rounds": 0}, "bad_rounds"),
        ({"options": {"no_such_rule": 1}}, "bad_option"),
        ({"base": 0}, "bad_stake"),  # checked as at its tables
        ({"starts_at": timezone.now() - timedelta(minutes=1)}, "bad_starts_at"),
        ({"seating": "by_height"}, "bad_seating"),
    ]:
        with pytest.raises(TournamentError) as e:
            new_tournament(staff, **bad)
        assert e.value.code == code
    assert not Tournament.objects.exists()


def test_bad_sign_ups_and_check_ins_change_nothing() -> None:
    now = timezone.now()
    tournament = new_tournament(organiser(), now, max_players=2, checkin_minutes=5)
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    services.sign_up(tournament.pk, a)
    with pytest.raises(TournamentError) as e:
        services.sign_up(tournament.pk, a)
    assert e.value.code == "already_signed_up"
    services.sign_up(tournament.pk, b)
    with pytest.raises(TournamentError) as e:
        services.sign_up(tournament.pk, c)
    assert e.value.code == "tournament_full"
    with pytest.raises(TournamentError) as e:
        services.check_in(tournament.pk, a, now)  # 20 minutes before the start: not open yet
    assert e.value.code == "checkin_not_open"
    with pytest.raises(TournamentError) as e:
        services.check_in(tournament.pk, a, tournament.starts_at + timedelta(seconds=1))
    assert e.value.code == "checkin_closed"
    with pytest.raises(TournamentError) as e:
        services.check_in(tournament.pk, c, tournament.starts_at - timedelta(minutes=1))
    assert e.value.code == "not_signed_up"
    assert TournamentPlayer.objects.filter(tournament=tournament).count() == 2
    assert not TournamentPlayer.objects.filter(checked_in__isnull=False).exists()


def test_a_two_round_swiss_duplicate_tournament_runs_to_its_results() -> None:
    staff = organiser()
    now = timezone.now()
    tournament = new_tournament(staff, now)
    people = entrants(tournament, 7, checked_in=6)  # one never checks in
    balances = {p.pk: Profile.objects.get(user=p).balance for p in people}
    assert services.sweep(tournament.starts_at - timedelta(seconds=1)) == 0
    services.sweep(tournament.starts_at)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_round) == (Tournament.Status.RUNNING, 1)
    tables = list(TournamentTable.objects.filter(round__number=1))
    assert [tt.players.count(None) for tt in tables] == [1, 1]  # 3 people and a bot at each
    assert people[6].pk not in [p for tt in tables for p in tt.players]
    round_one = tournament.round_rows.get(number=1)
    assert round_one.commitment == deals.round_commitment(round_one.salt)

    assert spectator_delay_of(tables[0].table_id) == settings_store.current().spectator_delay_seconds > 0
    later = play_round(tournament, tournament.starts_at)
    after_one = [row.user_id for row in standings(tournament)]
    services.sweep(later)
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    # Swiss: round two seats the standings after round one in order, the leaders together
    second = TournamentTable.objects.filter(round__number=2).order_by("number")
    assert [tt.players for tt in second] == pairing.swiss_tables(after_one, 4)
    round_one.refresh_from_db()
    assert round_one.revealed
    later = play_round(tournament, later)
    services.sweep(later)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    hands = finished_hands(tournament)
    assert len(hands) == 2 * 2 * 2  # rounds × tables × hands per round
    for r in tournament.round_rows.all():
        for deal in (1, 2):
            played = [h for h in hands if h.table.tournament_table.round_id == r.pk][deal - 1 :: 2]
            assert {h.setup["salt"] for h in played} == {deals.deal_salt(r.salt, deal)}
            dealers = sorted(h.dealer for h in played)
            assert dealers == sorted(
                pairing.rotated_dealer(deal, h.table.tournament_table.number, 4) for h in played
            )
    # every duplicate hand verifies as any hand (docs/fairness.md), its salt the round's deal salt
    for hand in hands[:2]:
        record = replays.hand_record(hand)
        assert verify_record(record)["ok"]
        assert record["fairness"]["salt"] == hand.setup["salt"]
    scores = [s for _, _, s in deal_scores(hands)]
    assert sum(diff for _, diff in duplicate.compared(scores)) == 0
    rows = standings(tournament)
    assert [r.user_id for r in rows][:6] and len(rows) == 6
    assert rows == sorted(rows, key=lambda r: r.sort_key())
    assert sum(r.hands for r in rows) == 2 * 2 * 2 * 3
    # the stake is virtual: no account moved
    assert {p.pk: Profile.objects.get(user=p).balance for p in people} == balances


def test_the_organiser_pauses_resumes_ends_and_disqualifies_audited() -> None:
    staff = organiser()
    tournament = new_tournament(staff, duplicate=False, rounds=1, hands_per_round=3)
    people = entrants(tournament, 4)
    services.sweep(tournament.starts_at)
    tt = TournamentTable.objects.get()
    outsider = make_user("outsider")
    with pytest.raises(TournamentError):
        organising.pause_table(tournament.pk, outsider, tt.table_id)
    organising.pause_table(tournament.pk, staff, tt.table_id, tournament.starts_at)
    table = Table.objects.get(pk=tt.table_id)
    assert table.deadline > tournament.starts_at + timedelta(days=6)  # nothing happens while paused
    organising.resume_table(tournament.pk, staff, tt.table_id, tournament.starts_at + timedelta(minutes=1))
    table.refresh_from_db()
    assert table.deadline < tournament.starts_at + timedelta(minutes=2)
    organising.disqualify(tournament.pk, staff, people[0].username, "rude")
    with pytest.raises(TournamentError) as e:
        organising.disqualify(tournament.pk, staff, people[0].username)
    assert e.value.code == "already_disqualified"
    organising.end_table(tournament.pk, staff, tt.table_id)
    tt.refresh_from_db()
    assert tt.ended is not None
    assert Table.objects.get(pk=tt.table_id).status == Table.Status.CLOSED
    assert Hand.objects.get(table_id=tt.table_id).status == Hand.Status.OVER
    actions = set(AdminAuditLog.objects.values_list("action", flat=True))
    assert {"tournament_pause_table", "tournament_resume_table", "tournament_end_table"} <= actions
    assert "tournament_disqualify" in actions
    services.sweep(timezone.now())
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert standings(tournament)[-1].user_id == people[0].pk  # the disqualified player is last


def test_a_player_gone_past_the_grace_is_kept_seated_under_auto_play(django_user_model: type[User]) -> None:
    staff = organiser()
    tournament = new_tournament(staff, duplicate=False, rounds=1, hands_per_round=2)
    entrants(tournament, 4)
    services.sweep(tournament.starts_at)
    tt = TournamentTable.objects.get()
    later = play_round(tournament, tournament.starts_at)
    tt.refresh_from_db()
    assert tt.ended is not None
    assert Hand.objects.filter(table_id=tt.table_id, status=Hand.Status.OVER).count() == 2
    services.sweep(later)
    assert Tournament.objects.get().status == Tournament.Status.FINISHED


def test_a_table_an_admin_closes_ends_its_round_there() -> None:
    tournament = new_tournament(organiser(), duplicate=False, rounds=1, hands_per_round=5)
    entrants(tournament, 4)
    services.sweep(tournament.starts_at)
    tt = TournamentTable.objects.get()
    live_tables.close_table(tt.table_id)
    services.sweep(tournament.starts_at + timedelta(seconds=1))
    tt.refresh_from_db()
    assert tt.ended is not None
    assert Tournament.objects.get().status == Tournament.Status.FINISHED

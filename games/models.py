"""Live play: tables, seats, matches, hands and the append-only action log.

The log is the truth: a hand's state is `replay(seed, HandAction rows)`. Every change to a
table goes through `games.table` (its store locks the Table row and bumps `Table.version`).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from common.settings_store import escape_multiplier
from games.engine.bots import DEFAULT_LEVEL, LEVELS
from games.engine.rulesets import VARIANT_IDS, get_ruleset

VARIANT_CHOICES = [(v, v) for v in VARIANT_IDS]
EAST = 27


def new_invite_token() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    class Stake(models.TextChoices):
        UNSET = "unset", _("unset")
        PROPOSED = "proposed", _("proposed")
        FIXED = "fixed", _("fixed")

    variant = models.CharField(max_length=20, choices=VARIANT_CHOICES)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Base stake (底分), RULES §1.2: the chooser sets it, everyone seated accepts.
    base = models.PositiveIntegerField(null=True, blank=True)
    stake_state = models.CharField(max_length=10, choices=Stake.choices, default=Stake.UNSET)
    stake_setter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    stake_chooser = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    options = models.JSONField(default=dict, blank=True)
    turn_seconds = models.PositiveSmallIntegerField(default=15)
    claim_seconds = models.PositiveSmallIntegerField(default=8)
    min_pause_ms = models.PositiveIntegerField(default=1000)
    undo_ms = models.PositiveIntegerField(default=1500)
    grace_seconds = models.PositiveIntegerField(default=120)
    escape_multiplier = models.PositiveSmallIntegerField(null=True, blank=True)  # None: 50, two_player 13
    public = models.BooleanField(default=True)
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    # What clients see and act on (docs/protocol.md): bumped by every change everybody can see.
    # Changes only some seats may know of (answers in a claim window) leave it alone, or the
    # numbers would tell spectators that somebody could claim.
    version = models.PositiveIntegerField(default=0)
    # Bumped by every change, seen or not: what this process's snapshots, the broadcasts and the
    # clock's deadlines are keyed by (a snapshot at the revision the database holds is current).
    revision = models.PositiveIntegerField(default=0)
    # The clock calls games.table.timers.timeout(id, deadline_version) once `deadline` has passed.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    deadline_version = models.PositiveIntegerField(default=0)
    act_since = models.DateTimeField(null=True, blank=True)  # when the current decision began
    # the table version at which the current decision began: a hand action sent from any
    # version since then answers this same decision, so it is not refused as stale
    decision_version = models.PositiveIntegerField(default=0)
    pause_until = models.DateTimeField(null=True, blank=True)  # minimum pause after a discard
    # Carried between hands.
    dealer = models.PositiveSmallIntegerField(default=0)
    round_wind = models.PositiveSmallIntegerField(default=EAST)
    counters = models.JSONField(default=dict, blank=True)
    match = models.ForeignKey("Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    hand = models.ForeignKey("Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    spectators = models.IntegerField(default=0)
    # A club's table (docs/clubs.md): private to the club's members, opened with its rules.
    club = models.ForeignKey(
        "games.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="tables"
    )
    notices = models.JSONField(default=dict, blank=True)  # {user id: message} for removed players
    # The clock's failure isolation (games.clock.ticks): timeouts that raised in a row, the last error,
    # and whether the clock gave the table up and closed it (the admin's "clock trouble" filter).
    clock_failures = models.PositiveSmallIntegerField(default=0)
    clock_error = models.CharField(max_length=300, blank=True, default="")
    clock_closed = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.variant} #{self.pk}"

    @property
    def players(self) -> int:
        return get_ruleset(self.variant).players

    @property
    def escape_penalty(self) -> int:
        """RULES §1.8: 50 × base, 13 × base for two_player (common.settings_store)."""
        return self.escape_penalty_at(escape_multiplier(self.variant))

    def escape_penalty_at(self, site_multiplier: int) -> int:
        """A table setting: the creator's `escape_penalty` house rule when set, else the admin's
        multiplier for this table, else the site's (`site_multiplier`). The one rule the
        penalty charged and the one shown on the board both follow."""
        return self.escape_multiplier_at(site_multiplier) * (self.base or 0)

    def escape_multiplier_at(self, site_multiplier: int) -> int:
        """The escape penalty's multiplier of the base stake that applies at this table."""
        chosen = (self.options or {}).get("escape_penalty")
        return chosen or self.escape_multiplier or site_multiplier

    def variant_name(self, chinese: bool) -> str:
        """The rule set's name in one language (pages outside games show it without the engine)."""
        rules = get_ruleset(self.variant)
        return rules.name_zh if chinese else rules.name_en

    @property
    def minimum_balance(self) -> int:
        """RULES §1.6: below 50 × base a player may not play the next hand (nor sit, set or accept
        the stake, or start one: docs/history.md). With no stake set yet, the smallest stake's."""
        return self.minimum_for(self.base or 1)

    @staticmethod
    def minimum_for(base: int) -> int:
        """The least a player must hold to play at a base stake of `base` (RULES §1.6: 50 × base)."""
        return 50 * base


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    is_bot = models.BooleanField(default=False)
    # The bot's strength (games.engine.bots.LEVELS); read only while is_bot.
    bot_level = models.CharField(max_length=10, choices=[(v, v) for v in LEVELS], default=DEFAULT_LEVEL)
    accepted = models.BooleanField(default=False)
    connections = models.IntegerField(default=0)  # open sockets of this seat's user
    disconnected_at = models.DateTimeField(null=True, blank=True)
    # Its last socket was cut off by a server process found dead (games.sockets.presence), not closed
    # by the player: a disconnect escape that follows is nobody's fault.
    server_cut = models.BooleanField(default=False)
    continue_choice = models.BooleanField(null=True, blank=True)
    auto = models.BooleanField(default=False)  # 托管 asked for by the player
    left = models.BooleanField(default=False)  # escaped mid-hand: a bot finishes the hand
    sat_at = models.DateTimeField(null=True, blank=True)
    # A human's claim held for the undo window before it is applied.
    pending = models.JSONField(null=True, blank=True)
    pending_until = models.DateTimeField(null=True, blank=True)
    # The seated person's tier in this variant, read when they sit down and moved by ranked
    # hands here (games.history.ranks): it travels with the seat in snapshots, so frames need no query.
    rank = models.JSONField(null=True, blank=True)
    # Minutes of the ban an escape from the running hand would bring this seat's person (the
    # abandonment policy, games.moderation.penalties), read when the hand starts: the board states it
    # beside the leave button, and renders make no query.
    ban_if_escaping = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "index"]
        constraints = [models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index")]

    def __str__(self) -> str:
        return f"{self.table} seat {self.index}"

    @property
    def empty(self) -> bool:
        return self.user_id is None and not self.is_bot

    @property
    def connected(self) -> bool:
        return self.is_bot or self.connections > 0

    @property
    def played_by_server(self) -> bool:
        """Bots, escaped players, 托管 and disconnected players are played by the clock."""
        return self.is_bot or self.left or self.auto or not self.connected


class Match(models.Model):
    """A run of hands at one table with the same players."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="matches")
    players = models.JSONField(default=list)  # user id (or None for a bot) per seat
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"match {self.pk} at {self.table}"


class Hand(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        OVER = "over", _("over")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    dealer = models.PositiveSmallIntegerField()
    round_wind = models.PositiveSmallIntegerField()
    # 第 n 局 of the wind round: the dealer's place after the seat that dealt the match's first hand
    round_hand = models.PositiveSmallIntegerField(default=1)
    setup = models.JSONField(default=dict)  # every new_hand keyword argument but variant and seed
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    actions_count = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)  # the engine's result view
    settlement = models.JSONField(null=True, blank=True)  # final payments, balances, penalties, hands
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="hand_unique_number")]

    def __str__(self) -> str:
        return f"hand {self.number} of {self.match}"


class HandCheckpoint(models.Model):
    """A hand's state after `actions` actions, pickled (games.table.checkpoints): a process that has
    not seen the hand starts from here and applies only the actions logged since, instead of
    replaying the hand from its deal. Derived data: the log stays the truth, and a checkpoint
    written by another engine version (`engine_format`) is ignored."""

    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, primary_key=True, related_name="+")
    actions = models.PositiveIntegerField()
    engine_format = models.CharField(max_length=16)
    state = models.BinaryField()

    def __str__(self) -> str:
        return f"checkpoint of hand {self.hand_id} at action {self.actions}"


class HandAction(models.Model):
    """Append-only: one row per applied action, in order (seq 1, 2, …)."""

    class Actor(models.TextChoices):
        HUMAN = "human", _("human")
        BOT = "bot", _("bot")
        TIMEOUT = "timeout", _("timeout")
        AUTO = "auto", _("auto")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    actor = models.CharField(max_length=10, choices=Actor.choices)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "seq"]
        constraints = [models.UniqueConstraint(fields=["hand", "seq"], name="handaction_unique_seq")]

    def __str__(self) -> str:
        return f"{self.hand} #{self.seq}: seat {self.seat} {self.action}"


class ScoreEntry(models.Model):
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="scores")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    delta = models.BigIntegerField()
    balance_after = models.BigIntegerField(null=True, blank=True)  # None for bots
    # The player's openskill rating in the variant just before this hand moved it (None: bots,
    # hands that moved no rating): the public sees it until the hand is past the spectator delay.
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("score entry")
        verbose_name_plural = _("score entries")

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}: {self.delta:+d}"


# Every package's own rows, imported here only so that Django registers them with the app:
# callers import each model from its package's `models` module.
from games.clubs import models as clubs_models  # noqa: E402, F401
from games.history import models as history_models  # noqa: E402, F401
from games.matchmaking import models as matchmaking_models  # noqa: E402, F401
from games.moderation import models as moderation_models  # noqa: E402, F401
from games.review import models as review_models  # noqa: E402, F401
from games.social import models as social_models  # noqa: E402, F401
from games.sockets import models as sockets_models  # noqa: E402, F401
from games.tournaments import models as tournaments_models  # noqa: E402, F401

"""Every house-rule combination the declared ranges admit plays whole hands without an error
(one table's `{"cap": 0}` once made the engine raise inside the clock for ever)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.actions import new_hand
from games.engine.errors import EngineError
from games.engine.rulesets import MAX_BASE, VARIANT_IDS, get_ruleset
from games.engine.rulesets.options import OptionError, OptionRange
from games.engine.simulate import play_hand

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _values(default: object, allowed: OptionRange) -> st.SearchStrategy[object]:
    if allowed.choices is not None:
        return st.sampled_from(allowed.choices)
    assert allowed.minimum is not None and allowed.maximum is not None, "declare both ends"
    if isinstance(default, int):
        return st.integers(int(allowed.minimum), int(allowed.maximum))
    return st.floats(allowed.minimum, allowed.maximum)


def option_space(variant: str) -> st.SearchStrategy[dict[str, object]]:
    """Any subset of the variant's options, each at any value its range admits."""
    rules = get_ruleset(variant)
    fields = {k: _values(d, rules.option_ranges[k]) for k, d in rules.default_options.items()}
    return st.fixed_dictionaries({}, optional=fields)


def base_stakes(variant: str) -> st.SearchStrategy[int]:
    stakes = st.integers(1, MAX_BASE)
    return stakes.map(lambda b: b + b % 2) if variant == "yihua" else stakes  # yihua: even


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_option_has_a_declared_range_that_admits_its_default(variant: str) -> None:
    rules = get_ruleset(variant)
    for key, default in rules.default_options.items():
        assert key in rules.option_ranges, f"{variant}: option {key} has no declared range"
        assert rules.check_options({key: default}) == {key: default}


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_bots_play_hands_under_any_admitted_options(variant: str) -> None:
    rules = get_ruleset(variant)

    @SETTINGS
    @given(
        options=option_space(variant),
        base=base_stakes(variant),
        seed=st.integers(0, 2**62),
        dealer=st.integers(0, rules.players - 1),
    )
    def plays(options: dict[str, object], base: int, seed: int, dealer: int) -> None:
        state, _log, _problems = play_hand(
            variant, seed, dealer=dealer, base=base, options=options, check=False
        )
        assert state.phase == "over" and state.result is not None
        balances = [50 * base] * rules.players  # everyone at the entry floor
        final = rules.settle(state.result, balances, state.result.from_seat)
        assert all(b + d >= 0 for b, d in zip(balances, final, strict=True))

    plays()


@pytest.mark.parametrize(
    ("variant", "options", "option"),
    [
        ("two_player", {"cap": 0}, "cap"),
        ("two_player", {"cap": -5}, "cap"),
        ("two_player", {"reserve": True, "reserve_n": 40}, "reserve_n"),
        ("two_player", {"cuopai_p": float("nan")}, "cuopai_p"),
        ("two_player", {"cuopai_p": 1.5}, "cuopai_p"),
        ("two_player", {"exchange": 1}, "exchange"),
        ("cantonese", {"rounds": 2}, "rounds"),
        ("shanghai", {"escape_penalty": -100000}, "escape_penalty"),
        ("yihua", {"escape_penalty": 0}, "escape_penalty"),
        ("tianjin", {"escape_penalty": 50}, "escape_penalty"),
    ],
)
def test_the_deal_refuses_options_out_of_range(variant: str, options: dict[str, object], option: str) -> None:
    with pytest.raises(OptionError) as refused:
        new_hand(variant, 1, base=2, options=options)
    assert refused.value.code == "bad_option" and refused.value.option == option
    assert option in refused.value.message


def test_an_option_error_is_an_engine_error() -> None:
    assert issubclass(OptionError, EngineError)

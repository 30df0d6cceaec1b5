"""The red team's option attack as a property: whatever `options` an API
client sends, the answer is 201 or 400 `bad_option`, and a table that was created plays its hands
through the clock without one failed timeout."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from accounts.services import create_api_token
from games.clock import ticks
from games.engine.rulesets import VARIANT_IDS, get_ruleset
from games.models import Table
from games.table import commands
from tests.conftest import make_user
from tests.games.conftest import hand_over

ANY_VALUE = st.one_of(
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.sampled_from([0, -1, 1, 2, 3, 4, 13, 16, 17, 40, 100, 101, 10**9]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.none(),
    st.lists(st.integers(), max_size=2),
)


def options_for(variant: str) -> st.SearchStrategy[dict[str, Any]]:
    names = [*get_ruleset(variant).default_options, "nonsense"]
    return st.dictionaries(st.sampled_from(names), ANY_VALUE, max_size=4)


@pytest.mark.django_db
class TestOptionsByTheApi(TestCase):
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data(), variant=st.sampled_from(VARIANT_IDS))
    def test_any_options_are_created_and_played_or_refused(self, data: st.DataObject, variant: str) -> None:
        user: User = make_user("prober")
        options = data.draw(options_for(variant))
        body = {"variant": variant, "base": 2, "bots": get_ruleset(variant).players - 1, "options": options}
        response = Client().post(
            "/api/tables/",
            data=json.dumps(body),  # NaN and Infinity go out as the red team sent them
            content_type="application/json",
            headers={"Authorization": f"Bearer {create_api_token(user)}"},
        )
        if response.status_code == 400:
            assert response.json()["error"] == "bad_option"
            assert not Table.objects.exists()
            return
        assert response.status_code == 201
        table = Table.objects.get()
        assert get_ruleset(variant).check_options(table.options) == table.options
        commands.start_hand(table.pk, user)
        ticks.drive_table_until_idle(table.pk, until=hand_over)
        assert not Table.objects.get(pk=table.pk).clock_failures

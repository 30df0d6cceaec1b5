"""The rules pages: /rules/ and /rules/<variant>/ in both languages, the 404, and the links to them."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.engine import patterns
from games.engine.rulesets import get_ruleset
from games.rendering.labels import VARIANT_NAMES
from games.table import opening
from tests.conftest import logged_in_client

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def page(client: Client, variant: str, lang: dict[str, str]) -> str:
    response = client.get(reverse("rules:variant", args=[variant]), **lang)
    assert response.status_code == 200
    return response.content.decode()


def row(html: str, pattern_id: str) -> str:
    start = html.index(f'id="pattern-{pattern_id}"')
    return html[start : html.index("</tr>", start)]


@pytest.mark.parametrize("variant", list(VARIANT_NAMES))
@pytest.mark.parametrize("lang", [ZH, EN], ids=["zh", "en"])
def test_every_pattern_has_a_row_with_names_value_and_an_example_hand_drawn_in_tiles(
    anon_client: Client, variant: str, lang: dict[str, str]
) -> None:
    html = page(anon_client, variant, lang)
    for p in patterns.catalogue(variant):
        r = row(html, p.id)
        assert p.name_zh in r and p.name_en in r
        assert str(p.value) in r.split('class="value"')[1]
        if p.impossible:
            assert "games/tiles/" not in r
        else:
            example = patterns.examples(variant)[p.id]
            assert 'data-tile="' + example["win_tile"] + '"' in r
            assert r.count("games/tiles/") >= 14 - 1 - 3 * len(example.get("melds", []))


def test_chinese_and_english_pages_are_in_their_language(anon_client: Client) -> None:
    zh = page(anon_client, "cantonese", ZH)
    en = page(anon_client, "cantonese", EN)
    assert "行牌" not in en and "Flow of a hand" in en and "3 fan" in en
    assert "封顶" in zh and "3 番" in zh and 'lang="zh-hans"' in zh
    assert 'lang="en"' in en and "Missed win" in en and "漏和" in zh


def test_the_language_switch_cookie_picks_the_language(anon_client: Client) -> None:
    anon_client.post(reverse("set_language"), {"language": "en", "next": "/rules/"})
    assert "What every rule set shares" in anon_client.get(reverse("rules:index")).content.decode()
    anon_client.post(reverse("set_language"), {"language": "zh-hans", "next": "/rules/"})
    html = anon_client.get(reverse("rules:index")).content.decode()
    assert "What every rule set shares" not in html and "补花" in html


def test_index_lists_every_variant_and_the_shared_flow(anon_client: Client) -> None:
    html = anon_client.get(reverse("rules:index"), **EN).content.decode()
    for variant, (zh, en) in VARIANT_NAMES.items():
        assert reverse("rules:variant", args=[variant]) in html and zh in html and en in html
    assert "Escape" in html and "Flowers" in html


@pytest.mark.parametrize("url", ["/rules/nope/", "/rules/SHANGHAI/", "/rules/shanghai-x/"])
def test_unknown_variant_is_a_404_page(anon_client: Client, url: str) -> None:
    response = anon_client.get(url, **EN)
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html and reverse("rules:index") in html
    assert "There is no rule set called" in html and 'href="/rules/shanghai/"' in html
    zh = anon_client.get(url, **ZH)
    assert zh.status_code == 404 and "找不到页面" in zh.content.decode()


def test_rules_pages_take_no_post(anon_client: Client) -> None:
    assert anon_client.post(reverse("rules:variant", args=["shanghai"])).status_code == 405


@pytest.mark.parametrize("variant", list(VARIANT_NAMES))
def test_worked_settlement_shows_the_engines_payments(anon_client: Client, variant: str) -> None:
    from games.engine.scoring.context import WinContext
    from games.rules import content as rules_content

    case = {"variant": variant, **rules_content.VARIANTS[variant].worked_case}
    result = get_ruleset(variant).score(WinContext.from_json(case))
    assert result.win and sum(result.payments) == 0
    html = page(anon_client, variant, EN)
    section = html.split('id="settlement"')[1].split("</section>")[0]
    deltas = re.findall(r'class="delta[^"]*">([+-]?\d+)<', section)
    assert [int(d) for d in deltas] == list(result.payments)


def test_two_player_worked_example_reads_the_self_draw_multiplier() -> None:
    from games.rules import pages as rules_pages

    with_lang = rules_pages.worked_example("two_player", "en")
    winner_gain = max(r["change"] for r in with_lang["rows"])
    multiplier = get_ruleset("two_player").default_options.get("self_draw_multiplier", 1)
    assert winner_gain == with_lang["value"] * multiplier * 2  # base 2


@pytest.mark.parametrize("variant", list(VARIANT_NAMES))
def test_house_rules_list_every_option_with_its_default(anon_client: Client, variant: str) -> None:
    html = page(anon_client, variant, EN)
    section = html.split('id="house-rules"')[1].split("</section>")[0]
    for key in get_ruleset(variant).default_options:
        assert f'data-option="{key}"' in section


def test_header_lobby_create_form_and_table_page_link_to_the_rules(alice: User) -> None:
    client = logged_in_client(alice)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert 'href="/rules/"' in lobby  # header and lobby button
    for variant in VARIANT_NAMES:
        assert f'href="/rules/{variant}/"' in lobby  # each variant's group in the lobby
    create = client.get(reverse("games:create")).content.decode()
    assert 'href="/rules/"' in create and 'href="/rules/two_player/#house-rules"' in create
    table = opening.create_table(alice, "tianjin")
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'class="variant-rules" href="/rules/tianjin/"' in html


def test_two_player_page_states_the_self_draw_multiplier_of_the_ruleset(anon_client: Client) -> None:
    multiplier = get_ruleset("two_player").default_options.get("self_draw_multiplier", 1)
    assert f"the opponent pays value × {multiplier} × base" in page(anon_client, "two_player", EN)
    assert f"对手付 分数 × {multiplier} × 底分" in page(anon_client, "two_player", ZH)


def _decision_items(markdown: str) -> dict[int, str]:
    """The numbered Decisions of a docs/rules page, each item's text on one line."""
    section = markdown[markdown.index("Decisions\n") : re.search(r"\n## \d+\. In play", markdown).start()]
    items: dict[int, str] = {}
    for match in re.finditer(r"^ ?(\d+)\. (.*?)(?=^ ?\d+\. |\Z)", section, re.M | re.S):
        items[int(match.group(1))] = " ".join(match.group(2).split())
    return items


@pytest.mark.parametrize("variant", list(VARIANT_NAMES))
def test_the_rules_page_shows_every_decision_as_the_rule_book_numbers_it(
    anon_client: Client, variant: str
) -> None:
    """Each decision on /rules/<variant>/ (both languages) is the rule book's decision of that number,
    which quotes the same words of the original page; every variant decides the last discard."""
    from pathlib import Path

    from django.conf import settings
    from django.utils.html import escape

    from games.rules.content import DECISIONS

    book = _decision_items((Path(settings.BASE_DIR) / "docs" / "rules" / f"{variant}.md").read_text())
    decisions = DECISIONS[variant]
    assert any("河底" in d.text.zh and "last discard" in d.text.en for d in decisions)
    for lang, pick in ((ZH, "zh"), (EN, "en")):
        html = page(anon_client, variant, lang)
        section = html[html.index('id="decisions"') :]
        for d in decisions:
            item = section[section.index(f'id="decision-{d.number}"') :]
            item = item[: item.index("</li>")]
            assert escape(getattr(d.text, pick)) in item
            if d.seed:
                assert escape(d.seed) in item
        assert ("规则说明" if pick == "zh" else "Decisions") in html
    for d in decisions:
        assert d.number in book, f"docs/rules/{variant}.md has no decision {d.number}"
        for part in filter(None, d.seed.split("…")):  # the rule book quotes the same words
            assert part in book[d.number], (d.number, part)


def test_the_prose_is_read_from_text_files_with_both_languages_alike(tmp_path, monkeypatch) -> None:
    """The rules prose lives in games/rules/text/ (one paragraph per line); a paragraph written in
    one language only is refused when the text is read, not shown half translated."""
    from games.rules import content

    files = sorted(p.name for p in content.TEXT_DIR.glob("*.md"))
    names = ["common", *VARIANT_NAMES]
    assert files == sorted(f"{name}.{lang}.md" for name in names for lang in ("zh", "en"))
    zh = (content.TEXT_DIR / "shanghai.zh.md").read_text()
    (tmp_path / "shanghai.zh.md").write_text(zh.replace("## flow\n", "## flow\n\n多出来的一段\n"))
    (tmp_path / "shanghai.en.md").write_text((content.TEXT_DIR / "shanghai.en.md").read_text())
    monkeypatch.setattr(content, "TEXT_DIR", tmp_path)
    with pytest.raises(ValueError, match="shanghai 'flow'"):
        content.read_variant("shanghai")

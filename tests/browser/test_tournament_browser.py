"""A tournament in a real browser: an organiser creates a two-round Swiss tournament with
duplicate deals; eight players sign up and seven check in over the JSON API (so one seat is a
bot's); the clock seats and plays the rounds — its process is killed mid-round and another takes
over, nothing lost — and the organiser follows it to the results page. Screenshots in both
languages, desktop and phone ($MAHJONG_SHOTS/tourney/), axe on every tournament page.

The server and its clock start through tests/games/tournaments/fast_play.py: the server plays
for the absent players at once, so a round takes seconds."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.shots import shots_dir
from tests.browser.test_accessibility import axe_source as axe  # noqa: F401 (the pinned axe-core, a fixture)
from tests.browser.test_accessibility import page_violations, speak
from tests.browser.test_play import sign_up
from tests.servers import ROOT, start, start_daphne, stop, wait_for

SHOTS = shots_dir("tourney")
LAUNCHER = ("-m", "tests.games.tournaments.fast_play")
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


class Site:
    def __init__(self, workdir: Path, env: dict[str, str]) -> None:
        self.workdir, self.env = workdir, env
        self.url = ""
        self.clock: subprocess.Popen[bytes] | None = None

    def manage(self, *args: str) -> str:
        out = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        return out.stdout

    def start_clock(self) -> None:
        command = [sys.executable, *LAUNCHER, "manage.py", "run_clock", "--interval", "0.05"]
        self.clock = start(command, self.env, self.workdir / f"clock-{time.monotonic_ns()}.log")

    def kill_clock(self) -> None:
        assert self.clock is not None
        self.clock.send_signal(signal.SIGKILL)
        self.clock.wait()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, shared_redis_url: str) -> Iterator[Site]:
    workdir = tmp_path_factory.mktemp("tournament")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}",
        ALLOWED_HOSTS="127.0.0.1 localhost",
        PYTHONUNBUFFERED="1",
        SIGNUPS_PER_ADDRESS_PER_HOUR="10000",
        SIGNUPS_PER_ADDRESS_PER_DAY="10000",
    )
    if shared_redis_url:
        env["REDIS_URL"] = re.sub(r"/\d+$", "/5", shared_redis_url)
    site = Site(workdir, env)
    site.manage("migrate", "--noinput")
    server, site.url = start_daphne(env, workdir / "daphne.log", launcher=LAUNCHER)
    try:
        wait_for(site.url + "/", server, workdir / "daphne.log")
        site.start_clock()
        yield site
    finally:
        if site.clock is not None:
            stop(site.clock)
        stop(server)


def api(site: Site, path: str, token: str | None = None, method: str = "GET") -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(
        site.url + path, method=method, headers=headers, data=b"" if method == "POST" else None
    )
    with urllib.request.urlopen(request, timeout=15) as response:
        return json.loads(response.read())


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def look(browser: Browser, site: Site, path: str, name: str, script: str, state: dict) -> None:
    """The page as the organiser sees it, in both languages, on a desktop and a phone:
    screenshots, no sideways scrolling, and no axe violation."""
    for language in ("en", "zh-hans"):
        for device, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            context = browser.new_context(
                base_url=site.url, viewport=viewport, bypass_csp=True, storage_state=state
            )
            page = context.new_page()
            page.goto("/")
            speak(page, language)
            page.goto(path)
            shoot(page, f"{name}-{language}-{device}")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"] + 1, f"{path} is wider than the {device} ({width}px)"
            assert page_violations(page, script) == []
            context.close()


def test_an_organiser_runs_a_two_round_swiss_duplicate_tournament(
    browser: Browser,
    site: Site,
    axe: str,  # noqa: F811 (the fixture imported above)
) -> None:
    context = browser.new_context(base_url=site.url, locale="en-US", viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    organiser = sign_up(page)
    make_staff = f"from django.contrib.auth.models import User; User.objects.filter(username='{organiser}')"
    site.manage("shell", "-c", make_staff + ".update(is_staff=True)")

    page.goto("/tournaments/")
    page.get_by_role("link", name="Create a tournament").click()
    page.locator("#id_name").fill("Friday duplicate cup")
    page.locator("#id_variant").select_option("shanghai")
    page.locator("#id_base").fill("2")
    page.locator("#id_rounds").fill("2")
    page.locator("#id_hands_per_round").fill("2")
    page.locator("#id_seating").select_option("swiss")
    page.locator("#id_duplicate").check()
    page.locator("#id_max_players").fill("8")
    page.locator("#id_checkin_minutes").fill("60")
    penalty = page.locator("#id_opt_shanghai_escape_penalty")  # the chosen rule set's house rules
    expect(penalty).to_be_visible()
    expect(page.locator("#id_opt_yihua_escape_penalty")).to_be_hidden()
    penalty.fill("500")
    page.get_by_role("button", name="Create").click()
    expect(page.locator(".house-rules[data-variant=shanghai]")).to_contain_text("1–100")  # as a table's
    shoot(page, "create-error-en-desktop")
    page.locator("#id_opt_shanghai_escape_penalty").fill("20")
    page.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/$"))
    tournament = int(re.search(r"/tournaments/(\d+)/", page.url).group(1))

    tokens = [site.manage("api_token", f"player{i}", "--create").strip().splitlines()[-1] for i in range(8)]
    for token in tokens:
        assert api(site, f"/api/tournaments/{tournament}/signup", token, "POST")["player"]
    for token in tokens[:7]:  # one signed-up player never checks in: a bot takes the seat
        assert api(site, f"/api/tournaments/{tournament}/checkin", token, "POST")["checked_in"]
    page.reload()
    expect(page.locator(".tournament-standings tbody tr")).to_have_count(8)
    state = context.storage_state()
    look(browser, site, f"/tournaments/{tournament}/", "signup", axe, state)

    # the start: brought forward to now rather than waiting for the minute the form allows
    site.manage(
        "shell",
        "-c",
        "from django.utils import timezone; from games.tournaments.models import Tournament; "
        f"Tournament.objects.filter(pk={tournament}).update(starts_at=timezone.now())",
    )
    deadline = time.monotonic() + 60
    while api(site, f"/api/tournaments/{tournament}/standings")["status"] != "running":
        assert time.monotonic() < deadline, "the clock did not start the tournament"
        time.sleep(0.3)
    page.reload()
    expect(page.locator(".event-tables li")).to_have_count(2)
    expect(page.locator(".event-tables")).to_contain_text("bot")
    shoot(page, "round1-en-desktop")

    # a clock process killed mid-round: another one takes over, nothing is lost
    time.sleep(1.0)
    site.kill_clock()
    assert api(site, f"/api/tournaments/{tournament}/standings")["status"] == "running"
    site.start_clock()

    deadline = time.monotonic() + 300
    while (standings := api(site, f"/api/tournaments/{tournament}/standings"))["status"] != "finished":
        assert time.monotonic() < deadline, "the tournament did not finish"
        time.sleep(0.5)
    assert all(r["salt"] for r in standings["rounds"])  # both rounds' salts revealed
    assert sum(row["hands"] for row in standings["standings"]) == 2 * 2 * 7  # rounds × hands × people
    assert len(standings["standings"]) == 7

    page.goto(f"/tournaments/{tournament}/")
    page.get_by_role("link", name="Results and every player's games").click()
    expect(page.locator("h1")).to_contain_text("Results")
    expect(page.locator(".player-games")).to_have_count(7)
    # spectators see no hand before the quick-match delay has passed; the organiser (staff) does
    assert api(site, f"/tournaments/{tournament}/record.json")["hands"] == []
    record = page.request.get(f"/tournaments/{tournament}/record.json").json()
    assert len(record["hands"]) == 2 * 2 * 2  # rounds × tables × hands
    salts = {}
    for hand in record["hands"]:
        salts.setdefault(hand["meta"]["table"], []).append(hand["fairness"]["salt"])
    assert len({tuple(s) for s in salts.values()}) == 2  # one deal sequence per round, shared by its tables
    look(browser, site, f"/tournaments/{tournament}/results/", "results", axe, state)
    look(browser, site, "/tournaments/", "list", axe, state)
    look(browser, site, "/tournaments/new/", "create", axe, state)
    context.close()

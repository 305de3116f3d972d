"""The user controls in a real headless browser: an interview as a persona, an object's state set from the page (and
bad values refused in one line), and two runs (a run and its fork) side by side on one time slider."""

from smallville.cli import main
from testing import LoopbackServer, stop_page
from testing.map_markers import wait_for_markers
from tests.smallville.app.browser import BROWSER_MARKS, assert_stayed_home, open_building, run_to, serve

pytestmark = BROWSER_MARKS

REPORTER = "a news reporter from the Ville Gazette"
STOVE = "the Ville:Hobbs Cafe:cafe:cooking area"


def test_an_interview_as_a_persona_and_an_object_set_from_the_page(outside, browser_page):
    from playwright.sync_api import expect

    page = browser_page
    with LoopbackServer() as model_server:
        args = ["--scenario", "the_ville_n3", "--embedder", "hashing", "--llm", "openai/loopback"]
        process, url = serve(outside, *args, "--api-base", model_server.url, env={"OPENAI_API_KEY": "sk-loopback"})
        try:
            page.goto(url)
            wait_for_markers(page, 3)
            expect(page.locator(".agent-card")).to_contain_text("Isabella Rodriguez")
            page.get_by_label("Interview question").fill("Who is running for mayor?")
            page.locator(".voice-persona input").fill(REPORTER)
            page.get_by_role("button", name="Ask").click()
            expect(page.locator(".voice-answer")).to_contain_text("Isabella Rodriguez: ", timeout=60_000)
            asked = list(model_server.stats.bodies)
            prompts = [message["content"] for body in asked for message in body["messages"]]
            assert any(f'introduces themselves as "{REPORTER}" asks Isabella Rodriguez' in text for text in prompts)

            # From the list: typing filters it.
            objects = page.get_by_role("textbox", name="An object of the world")
            objects.fill("piano")
            page.get_by_role("option", name="the Ville:Hobbs Cafe:cafe:piano").click()
            page.locator(".world-state input").fill("out of tune")
            page.get_by_role("button", name="Set", exact=True).click()
            expect(page.locator(".world-note")).to_have_text(
                "At 00:00:00 the piano in Hobbs Cafe (cafe) is out of tune.", timeout=60_000
            )

            # On the map: a building's box lists its objects and their states; one picked goes to the box.
            open_building(page, "Hobbs Cafe")
            things = page.locator(".place-info .place-object")
            expect(things.filter(has_text="piano")).to_have_text("piano (out of tune)")
            things.filter(has_text="cooking area").click()
            expect(objects).to_have_value(STOVE)
            page.locator(".world-state input").fill("burning")
            page.get_by_role("button", name="Set", exact=True).click()
            expect(page.locator(".world-note")).to_have_text(
                "At 00:00:00 the cooking area in Hobbs Cafe (cafe) is burning.", timeout=60_000
            )
            expect(things.filter(has_text="cooking area")).to_have_text("cooking area (burning)")
            expect(page.locator(".work-failure")).to_have_count(0)

            # A bad value is one line in its box, checked as the command line checks it; nothing is done with it.
            page.locator(".world-state input").fill("x" * 2001)
            page.get_by_role("button", name="Set", exact=True).click()
            expect(page.locator(".world-error")).to_have_text(
                "Its new state: the statement has 2001 characters, more than 2000; give a shorter one"
            )
            expect(things.filter(has_text="cooking area")).to_have_text("cooking area (burning)")
            page.get_by_label("Run to (HH:MM)").fill("2023-02-13T09:00+01:00")
            page.get_by_role("button", name="Run to", exact=True).click()
            expect(page.locator(".work-failure")).to_contain_text("names a time zone")
            expect(page.locator(".town-clock")).to_contain_text("00:00:00")
        finally:
            stop_page(process)
    assert_stayed_home(page, outside)


def test_a_run_and_its_fork_side_by_side_on_one_time_slider(outside, browser_page, tmp_path):
    from playwright.sync_api import expect

    page = browser_page
    source, fork = tmp_path / "source", tmp_path / "fork"
    town = ["--scenario", "the_ville_n3", "--embedder", "hashing", "--seconds-per-step", "60"]
    assert main(["simulate", *town, "--until", "2023-02-13T10:00", "--keep-checkpoints", "every 1h",
                 "--out", str(source)]) == 0  # fmt: skip
    told = "Isabella Rodriguez is throwing a Valentine's Day party at Hobbs Cafe tomorrow evening"
    argv = ["fork", str(source), "--at", "2023-02-13T08:00", "--out", str(fork), "--whisper", "Klaus Mueller", told]
    assert main(argv) == 0
    process, url = serve(outside, str(source), "--beside", str(fork))
    try:
        page.goto(url)
        wait_for_markers(page, 3)
        page.get_by_role("tab", name="Side by side").click()
        both = page.locator(".side-by-side-run")
        expect(both).to_have_count(2)
        wait_for_markers(both, 6, timeout_ms=5_000)
        expect(page.locator(".side-by-side-parted")).to_contain_text("The runs part at 2023-02-13 08:00:00")
        expect(page.locator(".side-by-side-parted")).to_contain_text(f"Klaus Mueller: {told}")
        captions = page.locator(".side-by-side-caption")
        expect(captions).to_have_text(["source at Mon 00:00", "fork at Mon 00:00"])
        page.get_by_label("Run to (HH:MM)").fill("09:30")
        page.get_by_role("button", name="Run to", exact=True).click()
        expect(captions).to_have_text(["source at Mon 09:30", "fork at Mon 09:30"], timeout=30_000)
        figures = page.locator(".side-by-side-figures").all_inner_texts()
        assert "party 33%" in figures[0] and "party 67%" in figures[1]  # Klaus knows in the fork only
    finally:
        stop_page(process)
    assert_stayed_home(page, outside)


def test_the_agent_who_sees_the_stove_set_burning_on_the_page_goes_to_it(outside, browser_page):
    """Offline: Isabella, working at the cafe, sees to its cooking area set burning from the map's box; then it is
    hers in use, the world's own rule, and its state on the map says so."""
    from playwright.sync_api import expect

    page = browser_page
    process, url = serve(outside, "--scenario", "the_ville_n3", "--embedder", "hashing")
    try:
        page.goto(url)
        wait_for_markers(page, 3)
        run_to(page, "08:30")
        open_building(page, "Hobbs Cafe")
        things = page.locator(".place-info .place-object")
        things.filter(has_text="cooking area").click()
        page.locator(".world-state input").fill("burning")
        page.get_by_role("button", name="Set", exact=True).click()
        expect(page.locator(".world-note")).to_have_text(
            "At 08:30:00 the cooking area in Hobbs Cafe (cafe) is burning.", timeout=60_000
        )
        run_to(page, "08:40")
        expect(page.locator(".agent-now")).to_contain_text("seeing to the cooking area, which is burning")
        expect(things.filter(has_text="cooking area")).to_contain_text("cooking area (being used by Isabella")
        expect(page.locator(".work-failure")).to_have_count(0)
    finally:
        stop_page(process)
    assert_stayed_home(page, outside)

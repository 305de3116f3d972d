"""The page's controls refuse a bad value in one line, in a real headless browser: the box says what is wrong and
the fix, nothing is queued, and the page goes on (the checks themselves are fuzzed in tests/smallville/fuzz/)."""

from testing import stop_page
from tests.smallville.app.browser import BROWSER_MARKS, assert_stayed_home, serve

pytestmark = BROWSER_MARKS


def test_a_bad_whisper_and_a_time_with_a_zone_are_refused_in_one_line_then_a_good_one_is_taken(outside, browser_page):
    from playwright.sync_api import expect

    page = browser_page
    process, url = serve(outside, "--scenario", "the_ville_n3", "--embedder", "hashing")
    try:
        page.goto(url)
        expect(page.locator(".agent-marker")).to_have_count(3, timeout=120_000)
        voice = page.get_by_label("Inner voice (a memory to give)")
        voice.fill("x" * 2001)
        page.get_by_role("button", name="Whisper").click()
        refusal = page.locator(".voice-error")
        expect(refusal).to_contain_text("Inner voice: the statement has 2001 characters, more than 2000")
        expect(voice).to_have_value("x" * 2001)  # kept, to be shortened

        page.get_by_label("Run to (HH:MM)").fill("2023-02-13T09:00+01:00")
        page.get_by_role("button", name="Run to", exact=True).click()
        expect(page.locator(".work-failure")).to_contain_text("names a time zone")
        expect(page.locator(".town-clock")).to_contain_text("00:00:00")

        voice.fill("You are running for mayor")
        page.get_by_role("button", name="Whisper").click()
        expect(page.locator(".voice-answer")).to_contain_text(
            "will remember: You are running for mayor", timeout=60_000
        )
        expect(refusal).to_have_count(0)
    finally:
        stop_page(process)
    assert_stayed_home(page, outside)

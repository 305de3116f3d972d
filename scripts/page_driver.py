"""What the screenshot scripts share: the page's own "Run to", and a zoom to a building.

They start the page server with `testing.serve_page` and take Debian's chromium from `testing.CHROMIUM`.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_to(page, clock: str, timeout_ms: int = 180_000) -> None:
    """Move the town (or the replay) to a time of day (HH:MM) with the page's own "Run to"."""
    page.get_by_label("Run to (HH:MM)").fill(clock)
    page.get_by_role("button", name="Run to", exact=True).click()
    page.wait_for_function(
        f"() => document.querySelector('.town-clock').innerText.includes('{clock}:00')", timeout=timeout_ms
    )
    page.wait_for_timeout(1500)


def zoom_to_building(page, name: str, wheel_steps: int, settle_ms: int) -> None:
    """Zoom the map in on a building with ctrl + mouse wheel at its name, and let the map settle."""
    label = page.locator(f".place-label.sector[data-text='{name}']").bounding_box()
    page.mouse.move(label["x"] + label["width"] / 2, label["y"] + label["height"] / 2)
    page.keyboard.down("Control")  # the wheel alone scrolls the page; ctrl + wheel zooms the map
    for _ in range(wheel_steps):
        page.mouse.wheel(0, -100)
        page.wait_for_timeout(150)
    page.keyboard.up("Control")
    page.wait_for_timeout(settle_ms)

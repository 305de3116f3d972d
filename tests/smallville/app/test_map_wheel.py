"""The mouse wheel over the map scrolls the page; ctrl + wheel (a touchpad's pinch) or full screen zooms the map.

The map's own wheel handler (town_map.vue) is run by node on a stand-in for the map, so no browser is needed.
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import smallville.app

VUE = Path(smallville.app.__file__).parent / "town_map.vue"
NODE = shutil.which("node")


def _wheel_handler() -> str:
    """The source of the map's onWheel method, as an object-literal method."""
    source = VUE.read_text()
    match = re.search(r"\n    (onWheel\(event\) \{.*?\n    \}),\n", source, re.S)
    assert match, "town_map.vue has no onWheel(event) method"
    return match.group(1)


def _turn_wheel(ctrl: bool = False, full_screen: bool = False) -> dict:
    """Turn the wheel over the map once: whether the page's scroll was stopped, and the zooms asked for."""
    script = f"""
    const map = {{{_wheel_handler()}}};
    const zooms = [];
    const me = {{fullScreen: {json.dumps(full_screen)}, zoomAt: (...args) => zooms.push(args),
                $refs: {{viewport: {{getBoundingClientRect: () => ({{left: 10, top: 20}})}}}}}};
    let prevented = false;
    const event = {{deltaY: -100, clientX: 110, clientY: 220, ctrlKey: {json.dumps(ctrl)}, metaKey: false,
                    preventDefault: () => {{ prevented = true; }}}};
    map.onWheel.call(me, event);
    console.log(JSON.stringify({{prevented, zooms}}));
    """
    done = subprocess.run([NODE, "-e", script], capture_output=True, text=True, timeout=30, check=True)
    return json.loads(done.stdout)


@pytest.mark.skipif(NODE is None, reason="node runs the map's wheel handler")
def test_the_wheel_alone_scrolls_the_page_and_ctrl_wheel_or_full_screen_zooms_where_the_pointer_is():
    assert _turn_wheel() == {"prevented": False, "zooms": []}  # the page scrolls on
    assert _turn_wheel(ctrl=True) == {"prevented": True, "zooms": [[1.2, 100, 200]]}
    assert _turn_wheel(full_screen=True) == {"prevented": True, "zooms": [[1.2, 100, 200]]}


def test_the_map_does_not_stop_the_pages_scroll_on_every_wheel():
    # `@wheel.prevent` would stop the page's scroll before the handler could let it through.
    assert "@wheel.prevent" not in VUE.read_text()

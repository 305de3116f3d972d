"""Reset empties every box of the page: what they said was of the old town."""

from smallville.app.controls import clear_boxes
from smallville.app.player_box import picked_place, player_error, player_name, player_note
from smallville.app.voice import answer, voice_error
from smallville.app.world_box import picked_object, world_error, world_note

BOXES = [
    answer,
    voice_error,
    world_note,
    world_error,
    picked_object,
    player_name,
    player_note,
    player_error,
    picked_place,
]


def test_reset_clears_every_box():
    for box in BOXES:
        box.set("something from the old town")
    clear_boxes()
    assert [box.value for box in BOXES] == [""] * len(BOXES)

"""The page's world box without a browser: the list puts the watched arena's objects first, and setting one applies
an intervention now (kept in the timeline and the event log)."""

from smallville.app.world_box import objects_in, objects_near_first, set_object_job, world_note
from smallville.model import SmallvilleModel

CAFE = "the Ville:Hobbs Cafe:cafe"


def test_the_objects_of_the_watched_arena_come_first_then_the_rest_once():
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", seed_memories=False)
    choices = objects_near_first(model.ville, CAFE)
    cafe = [address for address in choices if address.startswith(CAFE + ":")]
    assert choices[: len(cafe)] == sorted(cafe) and len(cafe) == 6
    assert sorted(choices) == sorted(model.ville.object_addresses())
    model.close()


def test_setting_an_object_from_the_page_is_an_intervention_now():
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", seed_memories=False)
    job = set_object_job(model, f"{CAFE}:piano", "painted blue")
    job.done(job.run())
    assert model.state.object_state(f"{CAFE}:piano").description == "painted blue"
    assert [entry["text"] for entry in model.event_log] == ["the piano is painted blue"]
    assert (
        model.timeline.applied == 1
        and world_note.value == "At 00:00:00 the piano in Hobbs Cafe (cafe) is painted blue."
    )
    model.close()


def test_a_buildings_box_lists_its_objects_with_their_states_now():
    model = SmallvilleModel(scenario_name="the_ville_n3", embedder="hashing", seed_memories=False)
    set_object_job(model, f"{CAFE}:piano", "out of tune").run()
    listed = {thing["name"]: thing["state"] for thing in objects_in(model.ville, "Hobbs Cafe", model.state)}
    assert listed["piano"] == "out of tune" and listed["cooking area"] == "idle" and len(listed) == 6
    model.close()

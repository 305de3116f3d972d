"""Opening a run folder for a command: checked, locked when the command writes, its model rebuilt at a checkpoint."""

import sys
from pathlib import Path

from agents import PersonaFileError, check_embedder, check_models
from smallville.cli import UserError
from smallville.model import SmallvilleModel
from smallville.runs.integrity import model_settings
from smallville.runs.store import RunFolderError, RunStore
from smallville.scenarios.scenario import ScenarioError
from smallville.settings.parameters import BY_NAME
from smallville.settings.validation import SettingError, check_town


def open_store(run_folder: str, *, write: bool):
    """The run folder's store, every file checked; `write` holds the folder's lock until the store is closed.

    Raises:
        UserError: If it is not a run folder, a file is damaged, or another process writes to it.
    """
    try:
        store = RunStore.open(Path(run_folder), write=write)
    except RunFolderError as error:
        raise UserError(str(error)) from error
    if store.snapshot is not None and store.snapshot.notice:
        print(f"warning: {store.snapshot.notice}", file=sys.stderr)
    for note in store.notes:
        print(f"note: {note}", file=sys.stderr)
    return store


def checked_town(kwargs: dict):
    """The scenario of these settings, after the checks a batch grid's cells get too (settings/validation.py).

    Raises:
        UserError: Naming the flag at fault.
    """
    try:
        return check_town(kwargs)
    except SettingError as error:
        raise UserError(f"{BY_NAME[error.name].cli_flag}: {str(error).splitlines()[0]}") from None


def build_model(store, *, overrides: dict | None = None, restore: bool = True, truncate: bool = True):
    """The run's model rebuilt from its config, brought to the store's checkpoint (when `restore`).

    `overrides` replace config values: another llm for an interview, a new budget for a resume.

    Raises:
        UserError: If the config no longer builds a model (a scenario or persona file changed) or does not fit the
            stored memories.
    """
    config = model_settings(store.config()) | (overrides or {})
    # As simulate checks them: a missing key is one line now, not four failed tries at the first call. A model given
    # on the command line is checked with the server given beside it, or the run's (a local server needs no key).
    try:
        check_models(config.get("llm", "offline"), config.get("routes"), config.get("api_base"))
    except ValueError as error:
        raise UserError(f"{'--llm' if 'llm' in (overrides or {}) else store.folder.root}: {error}") from error
    try:
        check_embedder(config.get("embedder", "minilm"), config.get("api_base"))
    except ValueError as error:
        raise UserError(f"{store.folder.root}: {error}") from error
    try:
        model = SmallvilleModel(**config, seed_memories=not restore)
    except TypeError as error:
        raise UserError(
            f"{store.folder.config}: does not fit this version of the model ({error}); "
            "use the version that wrote it, or start a new run"
        ) from error
    except (ValueError, ScenarioError, PersonaFileError) as error:
        raise UserError(f"{store.folder.config}: {str(error).splitlines()[0]}") from error
    if restore:
        try:
            store.restore(model, truncate=truncate)
        except RunFolderError as error:
            model.close()
            raise UserError(str(error)) from error
    return model


def save_checkpoint(store, model) -> None:
    """Write a checkpoint; a failed write (a full disk) is one line naming the file.

    Raises:
        UserError: If a file cannot be written; the previous checkpoint stays intact.
    """
    try:
        store.checkpoint(model)
    except RunFolderError as error:
        raise UserError(str(error)) from error


def load_run(run_folder: str, overrides: dict | None = None, *, write: bool = False):
    """The run's model at its last checkpoint, and the store it came from (locked when the command writes).

    `overrides` replace the run's settings (an interview's --llm and --api-base). A reader (an interview that is not
    remembered) leaves every file as it is, so it can run beside a writer.
    """
    store = open_store(run_folder, write=write)
    try:
        if store.snapshot is None:
            raise UserError(
                f"{run_folder}: no checkpoint yet; wait for the run's first one, or `run.py resume {run_folder}`"
            )
        model = build_model(store, overrides=overrides, truncate=write)
    except BaseException:
        store.close()
        raise
    return model, store

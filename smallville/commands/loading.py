"""Opening a run folder for a command: checked, locked when the command writes, its model rebuilt at a checkpoint."""

import sys
from pathlib import Path

from smallville.cli import UserError


def open_store(run_folder: str, *, write: bool):
    """The run folder's store, every file checked; `write` holds the folder's lock until the store is closed.

    Raises:
        UserError: If it is not a run folder, a file is damaged, or another process writes to it.
    """
    from smallville.runs.store import RunFolderError, RunStore  # noqa: PLC0415 - heavy

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
    from smallville.settings.parameters import BY_NAME  # noqa: PLC0415
    from smallville.settings.validation import SettingError, check_town  # noqa: PLC0415 - heavy

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
    from agents import PersonaFileError, check_models  # noqa: PLC0415 - heavy
    from agents.language.embeddings import check_embedder  # noqa: PLC0415
    from smallville.model import SmallvilleModel  # noqa: PLC0415
    from smallville.runs.integrity import model_settings  # noqa: PLC0415
    from smallville.runs.store import RunFolderError  # noqa: PLC0415
    from smallville.scenarios.scenario import ScenarioError  # noqa: PLC0415

    config = model_settings(store.config()) | (overrides or {})
    try:  # as simulate checks them: a missing key is one line now, not four failed tries at the first call
        check_models(config.get("llm", "offline"), config.get("routes"), config.get("api_base"))
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
    from smallville.runs.store import RunFolderError  # noqa: PLC0415

    try:
        store.checkpoint(model)
    except RunFolderError as error:
        raise UserError(str(error)) from error

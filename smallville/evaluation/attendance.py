"""Attendance by the paper's definition: invitees who came to the gathering for it, beside everyone present.

- Invited: told of the gathering before it began, by the cascade (told or whispered, or seeded without being its
  host: a host, the announcing fact's source, is never an invitee).
- Present: at the gathering's place (its world-tree address) for at least ATTENDANCE_SHARE of its window, by the
  event log's actions (an action lasts until the agent's next one).
- Came for it: present, and there for it: an action of its at the place in the window, or its plan for that day,
  names the gathering (its name, or the name's last word: "party"), or, failing that, its interview answer to "why
  were you there?" shows it, by the fact check.
The same rule is applied to a control window, the same hours a day before (or after) without the gathering: diners
and staff stay present there, and nobody should come "for" a gathering that is not on.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from smallville.scenarios.scenario import Gathering, TrackedFact

# Share of the gathering's window an agent must spend at its place to count as present (a quarter: 30 minutes of
# the paper's two-hour party; passing through, or buying a coffee, is not attending).
ATTENDANCE_SHARE = 0.25


@dataclass(frozen=True)
class Window:
    """A stretch of time at the gathering's place: the gathering's own, or its control."""

    label: str
    start: datetime
    end: datetime

    def text(self) -> str:
        """The window as the summary and the interview say it: "February 14, 5:00 pm to 7:00 pm"."""
        return f"{self.start:%B} {self.start.day}, {_clock(self.start)} to {_clock(self.end)}"


def _clock(moment: datetime) -> str:
    return f"{(moment.hour % 12) or 12}:{moment.minute:02d} {'am' if moment.hour < 12 else 'pm'}"


def windows(gathering: Gathering, start: datetime, until: datetime) -> list[Window]:
    """The gathering's window, and its control (a day earlier, else a day later) when the run covers it by `until`."""
    if gathering.end > until:
        return []
    found = [Window("gathering", gathering.start, gathering.end)]
    for shift in (timedelta(days=-1), timedelta(days=1)):
        if gathering.start + shift >= start and gathering.end + shift <= until:
            found.append(Window("control", gathering.start + shift, gathering.end + shift))
            break
    return found


def _time(entry: dict) -> datetime:
    return datetime.fromisoformat(entry["time"])


def presence(log: list[dict], place: str, window: Window, until: datetime) -> dict[str, float]:
    """Each agent's share of the window spent at the place (agents never there are left out)."""
    actions: dict[str, list[dict]] = {}
    for entry in sorted((e for e in log if e["kind"] == "action" and _time(e) <= until), key=_time):
        actions.setdefault(entry["agent"], []).append(entry)
    length = (window.end - window.start).total_seconds()
    shares = {}
    for agent, done in actions.items():
        ends = [_time(entry) for entry in done[1:]] + [until]
        seconds = 0.0
        for entry, stop in zip(done, ends, strict=True):
            if (entry.get("address") or "").startswith(place):
                overlap = min(stop, window.end) - max(_time(entry), window.start)
                seconds += max(0.0, overlap.total_seconds())
        if seconds:
            shares[agent] = seconds / length
    return shares


def names_it(gathering: Gathering, fact: TrackedFact | None) -> Callable[[str], bool]:
    """Whether a text names the gathering: its name, the name's last word, or the announcing fact's keyword rule."""
    name = gathering.name.lower()
    head = re.sub(r"[^a-z]", "", name.split()[-1]) if name.split() else name
    pattern = re.compile(rf"\b(?:{re.escape(name)}|{re.escape(head)})\b", re.IGNORECASE)
    return lambda text: bool(pattern.search(text)) or bool(fact and fact.matches(text))


def there_for_it(log: list[dict], agent: str, place: str, window: Window, named: Callable[[str], bool]) -> bool:
    """An action of the agent at the place in the window, or its plan for that day, names the gathering."""
    actions = sorted((e for e in log if e["kind"] == "action" and e["agent"] == agent), key=_time)
    ends = [_time(entry) for entry in actions[1:]] + [window.end]
    for entry, stop in zip(actions, ends, strict=True):
        at_place = (entry.get("address") or "").startswith(place)
        if at_place and _time(entry) < window.end and stop > window.start and named(entry["text"]):
            return True
    day = window.start.date().isoformat()
    plans = [e for e in log if e["kind"] == "plan" and e["agent"] == agent and e.get("day", e["time"][:10]) == day]
    return any(named(" ".join(str(block[0]) for block in plan.get("blocks", []))) for plan in plans)


@dataclass(frozen=True)
class Attendance:
    """Invitees, those present, and those of the invitees who came for it; the same for the control window."""

    invited: tuple[str, ...]
    came: tuple[str, ...]
    present: tuple[str, ...]
    control: str = ""
    control_came: tuple[str, ...] = ()
    control_present: tuple[str, ...] = ()
    # (window, agent, invited, share of the window at the place, why there for it or ""): attendance.csv's rows.
    rows: tuple[tuple[str, str, bool, float, str], ...] = ()

    def as_dict(self) -> dict:
        """The figures of measures.json."""
        return {
            "invited": len(self.invited),
            "came": len(self.came),
            "present": len(self.present),
            "control_window": self.control,
            "control_came": len(self.control_came),
            "control_present": len(self.control_present),
            "share": ATTENDANCE_SHARE,
        }

    def text(self) -> str:
        """The paper's way of saying it, with the control: "5 of 12 invited came (7 present in all; ...)"."""
        control = (
            f"; control window {self.control}: {len(self.control_came)} invited came, "
            f"{len(self.control_present)} present"
            if self.control
            else ""
        )
        return f"{len(self.came)} of {len(self.invited)} invited came ({len(self.present)} present in all{control})"


def invitees(cascade: list, fact: TrackedFact, gathering: Gathering) -> set[str]:
    """Those who learned of the gathering before it began by being told, whispered, or seeded; never its hosts."""
    ways = ("told", "whispered", "seeded")
    return {
        learned.agent
        for learned in cascade
        if learned.fact == fact.id and learned.how in ways and learned.when is not None
        and learned.when < gathering.start and learned.agent not in fact.sources
    }  # fmt: skip


def present_in(log: list[dict], gathering: Gathering, window: Window, until: datetime) -> set[str]:
    """Those at the gathering's place for at least ATTENDANCE_SHARE of the window."""
    shares = presence(log, gathering.place, window, until)
    return {agent for agent, share in shares.items() if share >= ATTENDANCE_SHARE}


def to_ask(log: list[dict], gathering: Gathering, fact: TrackedFact | None, until: datetime, start: datetime):
    """(agent, window) for everyone present whose actions and plan do not say why: their interview will."""
    named = names_it(gathering, fact)
    return [
        (agent, window)
        for window in windows(gathering, start, until)
        for agent in sorted(present_in(log, gathering, window, until))
        if not there_for_it(log, agent, gathering.place, window, named)
    ]


def attendance(
    log: list[dict], gathering: Gathering, fact: TrackedFact | None, invited: set[str], checks: list[dict],
    until: datetime, start: datetime,
) -> Attendance | None:  # fmt: skip
    """Attendance in the gathering's window and its control; None before the gathering has ended."""
    found = windows(gathering, start, until)
    if not found:
        return None
    named = names_it(gathering, fact)
    said = {(r["agent"], r["subject"]) for r in checks if r["kind"] == "attendance" and r["shows"]}
    figures, rows = {}, []
    for window in found:
        shares = presence(log, gathering.place, window, until)
        present = {agent for agent, share in shares.items() if share >= ATTENDANCE_SHARE}
        came = set()
        for agent in sorted(present | invited):
            why = ""
            if agent in present and there_for_it(log, agent, gathering.place, window, named):
                why = "its action or plan names it"
            elif agent in present and (agent, window.label) in said:
                why = "its interview says so"
            if agent in invited and why:
                came.add(agent)
            rows.append((window.label, agent, agent in invited, round(shares.get(agent, 0.0), 3), why))
        figures[window.label] = (window, present, came)
    _, present, came = figures["gathering"]
    control, control_present, control_came = figures.get("control", (None, set(), set()))
    return Attendance(
        invited=tuple(sorted(invited)),
        came=tuple(sorted(came)),
        present=tuple(sorted(present)),
        control=control.text() if control else "",
        control_came=tuple(sorted(control_came)),
        control_present=tuple(sorted(control_present)),
        rows=tuple(rows),
    )

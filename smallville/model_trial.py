"""Whether a model can run a town: one request of every kind from a small fixed town, through the real gateway.

The requests are built from the_ville_n3's first two people as the town holds them at its start (their persona, the
places they know, the memories seeded in them), so each carries the prefix, the schema and the parameters a run
sends. Each is asked once, in turn, as a run would ask it: with its retries, its one repair and its fallback, and the
structured-output form the model's provider enforces (a refused form falls back once to the next weaker one). A model
can run a town when every kind parsed, first time or after the repair; a fallback, a refusal or a dead server says
it cannot.
"""

import asyncio
import time
from dataclasses import dataclass, field
from datetime import timedelta

from agents import Gateway, GatewayConfig, ModelUnavailable, language
from agents.language import PlaceOption, PlanBlock, wire_form
from smallville.model import SmallvilleModel
from smallville.model_causes import cause_of, stops_the_check

# The small fixed town the requests come from.
TOWN = "the_ville_n3"
# What a request ended as: parsed first time, parsed after the repair, the fallback, or no answer at all.
PARSED, REPAIRED, FELL_BACK, REFUSED, FAILED, NOT_ASKED = (
    "parsed", "repaired", "fell back", "refused", "failed", "not asked"
)  # fmt: skip
# Failing kinds named in the verdict's line (the rest counted).
MOST_NAMED = 3
# Kinds only the evaluation asks (interviews are judged, facts checked): checked with --judge.
JUDGE_KINDS = frozenset({"judge", "rank", "fact_check", "ground", "interviews", "ranks", "fact_checks"})


# The figures of the kind's call, as its ledger record has them.
CALL_FIGURES = ("latency_s", "prompt_tokens", "completion_tokens", "reasoning_tokens", "cached_tokens", "cost")


@dataclass(frozen=True)
class KindCheck:
    """How one request kind went (its call's figures are the ledger record's: CALL_FIGURES)."""

    kind: str
    form: str
    outcome: str
    latency_s: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    cached_tokens: int = 0
    cost: float | None = 0.0
    note: str = ""

    @property
    def answered(self) -> bool:
        """Parsed, first time or after the repair: what a town needs of every kind."""
        return self.outcome in {PARSED, REPAIRED}


@dataclass
class ModelCheck:
    """Every kind's check for one model, and the verdict."""

    model: str
    kinds: list[KindCheck] = field(default_factory=list)

    @property
    def can_run_a_town(self) -> bool:
        """Whether every kind was answered."""
        return bool(self.kinds) and all(check.answered for check in self.kinds)

    def verdict(self) -> str:
        """One line: whether the model can run a town, and why not."""
        answered = sum(check.answered for check in self.kinds)
        repaired = sum(check.outcome == REPAIRED for check in self.kinds)
        cost = sum(check.cost or 0.0 for check in self.kinds)
        unpriced = sum(check.cost is None and check.answered for check in self.kinds)
        priced = f" ({unpriced} of {len(self.kinds)} kinds unpriced: litellm knows no price)" if unpriced else ""
        if self.can_run_a_town:
            return (f"{self.model} can run a town: {answered} of {len(self.kinds)} kinds answered ({repaired} after "
                    f"a repair); the check cost ${cost:.4f}{priced}")  # fmt: skip
        unanswered = [check for check in self.kinds if not check.answered]
        failed = [check for check in unanswered if check.outcome != NOT_ASKED]
        named = ", ".join(f"{check.kind} {check.outcome}" for check in failed[:MOST_NAMED])
        more = len(unanswered) - len(failed[:MOST_NAMED])
        rest = f" and {more} more kinds not answered" if more else ""
        cause = cause_of([f"{check.outcome}: {check.note}" for check in failed])
        return f"{self.model} cannot run a town: {named}{rest}. Cause: {cause.name}; fix: {cause.fix}"


def sample_requests(judge: bool = False) -> dict:
    """One request of every kind the agents make (and, with `judge`, every kind the evaluation's judge makes)."""
    town = SmallvilleModel(scenario_name=TOWN, embedder="hashing", seed_memories=False)
    try:
        first, second = town.people[:2]
        start = town.start
    finally:
        town.close()
    me, other = first.identity, second.identity
    noon, day = start + timedelta(hours=12), start.date()
    seeds = first.persona.seeds or (f"{other.name} is a friend of mine",)
    memories = (*seeds[:3], f"{other.name} is {other.currently}")
    places = tuple(
        PlaceOption(sector, arena, tuple(objects))
        for sector, arenas in first.spatial.choices(me.name, me.living_area).items()
        for arena, objects in arenas.items()
    )
    _, home_sector, home_arena = me.living_area.split(":")[:3]
    home = next(place for place in places if (place.sector, place.arena) == (home_sector, home_arena))
    tended = home if home.objects else next(place for place in places if place.objects)
    plan = (
        "from 7:00 am to 8:00 am, waking up and getting ready",
        "from 8:00 am to 12:00 pm, going about the day's work",
        "from 12:00 pm to 1:00 pm, having lunch",
        "from 1:00 pm to 6:00 pm, going about the day's work",
        "from 6:00 pm to 11:00 pm, having dinner and relaxing at home",
    )
    lines = ((me.name, f"Hi {other.first_name}, how are you today?"), (other.name, "Busy, but glad to see you!"))
    react = language.ReactionRequest(me, noon, "having lunch", other.name, "walking by", memories[-2:])
    requests = {
        "importance": language.ImportanceRequest(me, memories[:2]),
        "wake_up": language.WakeUpRequest(me),
        "day_plan": language.DayPlanRequest(me, day, 7, ""),
        "hourly_schedule": language.HourlyScheduleRequest(me, day, 7, plan),
        "decompose": language.DecomposeRequest(
            me, "going about the day's work", 480, 60, "getting ready", "having lunch"
        ),
        "action": language.ActionRequest(me, ("having lunch", "sleeping"), home.sector, home.arena, places),
        "reaction": react,
        "object_reaction": language.ObjectReactionRequest(
            me,
            noon,
            "having lunch",
            me.living_area,
            f"{me.living_area.split(':')[0]}:{tended.sector}:{tended.arena}:{tended.objects[-1]}",
            "on fire",
            (),
        ),
        "conversation_line": language.ConversationLineRequest(me, other.name, home.arena, noon, memories, lines[:1]),
        "conversation_summary": language.ConversationSummaryRequest(me.name, other.name, lines),
        "schedule_rewrite": language.ScheduleRewriteRequest(
            me, 720, f"talking with {other.name}", 10, (PlanBlock("having lunch", 60),)
        ),
        "reflection_questions": language.ReflectionQuestionsRequest(me, memories, 3),
        "insights": language.InsightsRequest(
            me, ((f"What do I know about {other.name}?", (1, 2)),), tuple(enumerate(memories[:2], start=1))
        ),
        "day_summary": language.DaySummaryRequest(me, day, tuple((noon, memory) for memory in memories)),
        "interview": language.InterviewRequest(me, noon, "What are you up to these days?", memories),
        "scored": language.ScoredRequest(react, me.name, memories[:2]),
    }
    if judge:
        question, context = f"What do you know about {other.name}?", me.describe()
        answers = (f"{other.name} is {other.currently}", "I have no idea who that is.")
        requests |= {
            "judge": language.JudgeRequest(question, context, *answers),
            "rank": language.RankRequest(question, context, answers),
            "fact_check": language.FactCheckRequest(
                question, answers[0], f"{other.name} is {other.currently}", me.name
            ),
            "ground": language.GroundRequest(
                question, answers[0], f"{other.name} is {other.currently}", me.name, memories
            ),
            # The same asked several at once, as `evaluate` asks them (requests/batches.py).
            "interviews": language.InterviewsRequest.of(
                me, noon, [(question, memories), ("Who are you?", memories[:1])]
            ),
            "ranks": language.RanksRequest(context, ((question, answers), ("Who are you?", answers[::-1]))),
            "fact_checks": language.FactChecksRequest(me.name, ((question, answers[0], answers[0]),) * 2),
        }
    return requests


def try_every_kind(config: GatewayConfig, judge: bool = False, requests: dict | None = None) -> ModelCheck:
    """Ask every kind once, in turn, and say how each went (a dead server stops the check: the rest not asked)."""
    requests = requests if requests is not None else sample_requests(judge)
    return asyncio.run(_check(config, requests))


async def _check(config: GatewayConfig, requests: dict) -> ModelCheck:
    gateway = Gateway(config)
    result = ModelCheck(config.model)
    agent = "model check"
    try:
        dead = ""
        for kind, request in requests.items():
            if dead:
                result.kinds.append(KindCheck(kind, "-", NOT_ASKED, cost=None, note=dead))
                continue
            downgrades = _downgrades(gateway, config.model)
            started = time.perf_counter()
            try:
                await gateway.ask(request, agent)
            except ModelUnavailable as error:
                outcome = REFUSED if error.refused else FAILED
                if not error.refused:
                    dead = "the server kept failing"
                elif stops_the_check(str(error)):  # a bad key or model name refuses every kind alike
                    dead = f"not asked: {kind} was refused for a reason every kind shares"
                failed = KindCheck(kind, "-", outcome, time.perf_counter() - started, cost=None, note=str(error))
                result.kinds.append(failed)
                continue
            result.kinds.append(_kind_check(kind, gateway, config, _downgrades(gateway, config.model) - downgrades))
    finally:
        await gateway.aclose()
        gateway.close()
    return result


def _downgrades(gateway: Gateway, model: str) -> int:
    return getattr(gateway.backend(model), "format_downgrades", 0)


def _kind_check(kind: str, gateway: Gateway, config: GatewayConfig, downgraded: int) -> KindCheck:
    record = gateway.ledger.records[-1]
    form = "offline" if config.model == "offline" else wire_form(config.model, record.answer_format, config.api_base)
    outcome = FELL_BACK if record.fallback else REPAIRED if record.repaired else PARSED
    notes = [f"{downgraded} weaker form after a refusal"] if downgraded else []
    if record.empty_answers or record.cut_answers:
        notes.append(f"asked again: {record.empty_answers} empty, {record.cut_answers} cut off")
    if record.retries:
        notes.append(f"{record.retries} retries")
    return KindCheck(
        kind=kind,
        form=form,
        outcome=outcome,
        note="; ".join(notes),
        **{figure: getattr(record, figure) for figure in CALL_FIGURES},
    )

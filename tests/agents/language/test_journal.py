"""The answer journal: what a run received since its checkpoint is given again, as it was, when the run resumes."""

import asyncio

from agents.language.backends import ScriptedBackend, TransientError
from agents.language.gateway import Gateway, GatewayConfig
from agents.language.journal import AnswerJournal
from agents.language.requests import WakeUpRequest

from ..personas import identity

ISABELLA = identity("Isabella Rodriguez")
MODEL = "openai/any"


def gateway_with(backend: ScriptedBackend, journal: AnswerJournal) -> Gateway:
    gateway = Gateway(GatewayConfig(model=MODEL), backends={MODEL: backend})
    gateway.journal = journal
    return gateway


def wake_up(gateway: Gateway) -> int:
    return asyncio.run(gateway.ask(WakeUpRequest(ISABELLA), "Isabella Rodriguez"))


def without_latency(gateway: Gateway) -> list[dict]:
    return [{**record.__dict__, "latency_s": 0} for record in gateway.ledger.records]


def test_a_resumed_run_is_given_the_answers_it_had_received_with_their_accounts(tmp_path, monkeypatch):
    monkeypatch.setattr("agents.language.gateway.BACKOFF_S", 0.0)
    journal = AnswerJournal(tmp_path / "answers.sqlite")
    journal.begin("after-checkpoint-1")
    first = ScriptedBackend([TransientError("429"), '{"hour": 6}', '{"hour": 9}'])
    before = gateway_with(first, journal)
    assert [wake_up(before), wake_up(before)] == [6, 9]  # the same request answered differently, the first retried
    journal.close()

    journal = AnswerJournal(tmp_path / "answers.sqlite")  # the process that resumes
    assert journal.resume("after-checkpoint-1") == 2
    second = ScriptedBackend(['{"hour": 11}'])
    after = gateway_with(second, journal)
    assert [wake_up(after), wake_up(after), wake_up(after)] == [6, 9, 11]  # in order, then the model again
    assert len(second.calls) == 1
    assert without_latency(after)[:2] == without_latency(before)  # the same calls, tokens, retries: the same ledger
    assert journal.replayed == 2 and journal.waiting == 0


def test_answers_after_another_checkpoint_are_never_replayed(tmp_path):
    journal = AnswerJournal(tmp_path / "answers.sqlite")
    journal.begin("one")
    wake_up(gateway_with(ScriptedBackend(['{"hour": 6}']), journal))
    journal.begin("two", keep="one")  # the next checkpoint: the one before stays, for a damaged newest one
    wake_up(gateway_with(ScriptedBackend(['{"hour": 7}']), journal))
    assert journal.resume("one") == 1 and journal.resume("two") == 1
    journal.begin("three", keep="two")
    assert journal.resume("one") == 0 and journal.resume("two") == 1
    assert journal.resume("a whisper's checkpoint") == 0
    assert wake_up(gateway_with(ScriptedBackend(['{"hour": 8}']), journal)) == 8


def test_offline_answers_are_not_kept(tmp_path):
    journal = AnswerJournal(tmp_path / "answers.sqlite")
    journal.begin("one")
    gateway = Gateway(GatewayConfig())
    gateway.journal = journal
    asyncio.run(gateway.ask(WakeUpRequest(ISABELLA), "Isabella Rodriguez"))
    assert len(journal) == 0  # free and always the same: nothing to lose

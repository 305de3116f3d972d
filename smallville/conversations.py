"""The town's rules for talks: applying the agents' decisions in agent order.

A talk starts only if both are still free when its turn to be applied comes (two agents may decide to talk to each
other, or to the same third agent, in the same step: the first in agent order wins), and neither is thinking: a
thinking agent cannot be drawn into a talk, and a talk's end reaches it once its thought is applied
(smallville/thinking.py). An agent may also choose to talk to a player it saw: the talk opens the same way, with
the player as its second speaker (smallville/players/talks.py).
"""

from agents import Conversation, Decision, WorldView
from agents.language import ConversationTurn
from smallville.players.talks import agent_opens_talk


def apply_decisions(model, decisions: list[Decision | None], view: WorldView) -> None:
    """Apply each agent's decision, in the scenario's agent order."""
    now = view.now
    for agent, decision in zip(model.people, decisions, strict=True):
        if decision is None:
            continue
        conversation = agent.conversation
        speaks = decision.line is not None and decision.talk_to is None  # with talk_to, the line opens a new talk
        if speaks and conversation is not None and not conversation.ended:
            _say(model, conversation, agent.name, decision.line)
        if decision.summary is not None and conversation is not None:
            for name in (conversation.first, conversation.second):
                if name in model.players:  # a player keeps no memories here: it stands by
                    model.players.place(model.players.get(name), model.state)
                elif name in model.by_name and not model.thoughts.defer_talk_end(name, decision.summary, now):
                    model.by_name[name].end_conversation(decision.summary, now)
            model.conversations.remove(conversation)
            model.log(agent.name, "talk", decision.summary.summary, partner=conversation.second)
        if decision.talk_to is not None and decision.talk_to not in model.by_name:
            agent_opens_talk(model, agent, decision.talk_to, now, decision.line)
        elif decision.talk_to is not None:
            start_talk(model, agent, model.by_name[decision.talk_to], now, decision.line)


def start_talk(model, first, second, now, opening: ConversationTurn | None = None) -> bool:
    """Start a talk if both are free and awake; returns whether it started.

    `first` says the `opening` line if its reaction gave one; the opening of a talk that does not start is not said.
    """
    if first.name in model.thoughts or second.name in model.thoughts:
        return False
    if first.conversation is not None or second.conversation is not None or second.sleeping or first.sleeping:
        return False
    conversation = Conversation(
        first=first.name, second=second.name, started=now, max_lines=model.config.max_conversation_lines
    )
    minutes = model.conversation_minutes()
    first.start_conversation(conversation, now, minutes)
    second.start_conversation(conversation, now, minutes)
    model.conversations.append(conversation)
    if opening is not None:
        _say(model, conversation, first.name, opening)
    return True


def _say(model, conversation: Conversation, speaker: str, turn: ConversationTurn) -> None:
    """A line said in a talk: added to it (which may end it) and logged."""
    conversation.add_line(speaker, turn.line, turn.end)
    model.log(speaker, "line", turn.line, partner=conversation.partner_of(speaker))

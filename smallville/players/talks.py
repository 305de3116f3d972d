"""A player's moves and lines applied to the town: the agent answers as it answers anyone.

A line said to an agent starts a talk with it, or goes on with the one they have (agents.Conversation, the player
speaking first); the agent's next line then comes from its own turn in the talk, the same request, memories and
context as with another agent, at the step its thinking takes. An agent that sees a player may also open a talk
itself, as it would with another agent (`agent_opens_talk`, the agent speaking first). The talk ends when the agent
says goodbye, at the line limit, when the player walks off, turns to another agent or leaves, or when the player has
said nothing for PATIENCE_MINUTES; the agent then keeps it as any talk, a chat memory and a takeaway thought
(agents/cognition/conversing.py).
"""

from datetime import datetime, timedelta
from functools import partial

from agents import AgentStatus, Conversation
from agents.cognition import summarize_conversation
from agents.language import ConversationTurn
from environment import Ville
from smallville.interventions.records import Intervention, InterventionError
from smallville.players.presence import Player

# How long an agent waits for a player's next line before it takes the talk as over (simulated minutes): a person
# at a keyboard is slower than an agent, and a page left open must not hold the agent in the talk for ever.
PATIENCE_MINUTES = 10


def check_player_intervention(ville: Ville, agent_names: list[str], item: Intervention, where: str) -> None:
    """A player's intervention against the town: a name no agent has, a tile to stand on, an agent to talk to.

    Raises:
        InterventionError: Naming the entry and the fix.
    """
    if item.player in agent_names:
        raise InterventionError(f"{where}: {item.player!r} is an agent of this town; join under another name")
    if item.tile is not None and not ville.is_walkable(item.tile):
        raise InterventionError(f"{where}: tile {list(item.tile)} is a wall or off the map; choose a place")
    if item.kind == "say" and item.target not in agent_names:
        raise InterventionError(
            f"{where}: no agent named {item.target!r} in this town; choose from: {', '.join(agent_names)}"
        )


def apply_player_intervention(model, item: Intervention) -> None:
    """Change the town as the player's move or line says, and log it (an `intervention` entry, then the line)."""
    player = model.players.get(item.player)
    if item.kind == "join":
        _end_talks(model, item.player)  # joining again where one stands is a fresh start
        model.players.place(Player(item.player, item.text, item.tile), model.state)
        model.log(item.player, "intervention", f"joins the town at {item.target}: {item.text}", intervention="join",
                  target=item.target, address=item.target, tile=list(item.tile))  # fmt: skip
        return
    if player is None:  # a line or move of one who has left: nothing happens, and the log says so
        model.log(item.player, "intervention", f"{item.player} is not in the town", intervention=item.kind)
        return
    if item.kind == "move":
        _end_talks(model, player.name)  # walking off ends a talk
        player.tile = item.tile
        model.players.place(player, model.state)
        model.log(player.name, "intervention", f"goes to {item.target}", intervention="move", target=item.target,
                  address=item.target, tile=list(item.tile))  # fmt: skip
    elif item.kind == "leave":
        _end_talks(model, player.name)
        model.players.remove(player.name, model.state)
        model.log(player.name, "intervention", "leaves the town", intervention="leave")
    else:
        _say(model, player, item)


def _say(model, player: Player, item: Intervention) -> None:
    """The player's line to the agent: in their talk, or opening one if the agent is free."""
    agent = model.by_name[item.target]
    model.settle([agent.name])  # a thought in flight reads the talk: it is applied before the line changes it
    now = model.now
    elsewhere = player_talk(model, player.name)
    if elsewhere is not None and agent_of(model, elsewhere) is not agent:  # turning to another agent ends a talk
        end_talk(model, elsewhere)
    conversation = player_talk(model, player.name, agent.name)
    if conversation is not None and conversation.ended:
        end_talk(model, conversation)
        conversation = None
    if conversation is None:
        busy = agent.conversation is not None or agent.sleeping
        if busy:
            doing = "asleep" if agent.sleeping else f"talking with {agent.conversation.partner_of(agent.name)}"
            model.log(player.name, "intervention", f"{agent.name} is {doing} and does not answer",
                      intervention="say", target=agent.name)  # fmt: skip
            return
        conversation = Conversation(
            first=player.name, second=agent.name, started=now, max_lines=model.config.max_conversation_lines
        )
        conversation.doing[player.name] = player.event().description
        agent.start_conversation(conversation, now, model.conversation_minutes())
        model.conversations.append(conversation)
    if not conversation.says_next(player.name):  # the agent's line is still to come: the player's waits for it
        model.log(player.name, "intervention", f"{agent.name} has not answered yet", intervention="say",
                  target=agent.name)  # fmt: skip
        return
    conversation.add_line(player.name, item.text, False)
    player.last_said = now
    model.players.place(player, model.state, f"talking with {agent.name}")
    model.log(player.name, "line", item.text, partner=agent.name)


def agent_opens_talk(model, agent, player_name: str, now: datetime, opening: ConversationTurn | None) -> bool:
    """An agent that chose to talk to a player it saw opens the talk, saying its opening line; returns whether it did.

    As between agents, the talk starts only if both are free: the agent awake and not in a talk or a thought, the
    player still in the town and in no talk. The player's patience starts with the talk: an opening left
    unanswered ends it after PATIENCE_MINUTES, as a player's silence does.
    """
    player = model.players.get(player_name)
    if player is None or player_talk(model, player_name) is not None:
        return False
    if agent.name in model.thoughts or agent.conversation is not None or agent.sleeping:
        return False
    conversation = Conversation(
        first=agent.name, second=player_name, started=now, max_lines=model.config.max_conversation_lines
    )
    conversation.doing[player_name] = player.event().description
    agent.start_conversation(conversation, now, model.conversation_minutes())
    model.conversations.append(conversation)
    model.players.place(player, model.state, f"talking with {agent.name}")
    if opening is not None:
        conversation.add_line(agent.name, opening.line, opening.end)
        model.log(agent.name, "line", opening.line, partner=player_name)
    return True


def player_talk(model, player: str, agent: str | None = None) -> Conversation | None:
    """The player's talk in progress (with that agent, if named), whoever opened it, if any."""
    for conversation in model.conversations:
        pair = (conversation.first, conversation.second)
        if player in pair and (agent is None or agent in pair):
            return conversation
    return None


def agent_of(model, conversation: Conversation):
    """The agent in a player's talk (the side that is not the player)."""
    return model.by_name.get(conversation.first) or model.by_name[conversation.second]


def end_due_talks(model) -> None:
    """End the players' talks that are over: the agent said goodbye, the line limit, or the player fell silent.

    The player's silence counts from its last line in this talk, or from the talk's start if it has said none yet.
    """
    if not model.players:
        return
    for player in model.players:
        conversation = player_talk(model, player.name)
        if conversation is None:
            continue
        waiting_since = max(player.last_said or conversation.started, conversation.started)
        silent = model.now >= waiting_since + timedelta(minutes=PATIENCE_MINUTES)
        if conversation.ended or silent:
            end_talk(model, conversation)


def end_talk(model, conversation: Conversation) -> None:
    """The agent keeps the talk as it keeps any: a summary, a chat memory and its takeaway; the player stands by."""
    agent = agent_of(model, conversation)
    player_name = conversation.partner_of(agent.name)
    model.settle([agent.name])
    summary = model.run_async(summarize_conversation(partial(model.gateway.ask, agent=agent.name), conversation))
    agent.end_conversation(summary, model.now)
    model.conversations.remove(conversation)
    model.log(agent.name, "talk", summary.summary, partner=player_name)
    player = model.players.get(player_name)
    if player is not None:
        model.players.place(player, model.state)


def _end_talks(model, player: str) -> None:
    conversation = player_talk(model, player)
    if conversation is not None:
        end_talk(model, conversation)


def player_statuses(model) -> dict[str, AgentStatus]:
    """The players' public faces for a step's snapshot: agents see them, react to them and may talk to them.

    A player is never asleep; it is "visiting (who they are)", or talking with the agent of its talk.
    """
    statuses = {}
    for player in model.players:
        talk = player_talk(model, player.name)
        partner = talk.partner_of(player.name) if talk is not None else None
        statuses[player.name] = AgentStatus(
            name=player.name,
            tile=player.tile,
            activity=player.event(f"talking with {partner}" if partner else "").description,
            address=model.ville.arena_address_at(player.tile),
            sleeping=False,
            talking_with=partner,
            action_ends=None,
        )
    return statuses

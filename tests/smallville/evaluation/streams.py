"""A hand-built memory stream of every kind, shared by the evaluation's tests."""

from datetime import datetime, timedelta

from memory import HashingEmbedder, MemoryStream, NodeKind

START = datetime(2023, 2, 13, 8, 0)
EMBED = HashingEmbedder(dim=64)


def hand_built() -> MemoryStream:
    """One event, one chat, one plan, one other thought and one reflection citing the event and the chat."""
    stream = MemoryStream(dim=64)

    def add(kind, text, minutes, **details):
        return stream.add(
            kind, text, created=START + timedelta(minutes=minutes), importance=5,
            embedding=EMBED.embed([text])[0], **details,
        )  # fmt: skip

    add(NodeKind.EVENT, "Maria Lopez is studying at the library", 0, subject="Maria Lopez")
    add(NodeKind.CHAT, "conversation with Maria Lopez: the concert on Friday", 10, partner="Maria Lopez",
        lines=(("Maria Lopez", "There is a jazz concert at the park on Friday"),))  # fmt: skip
    add(NodeKind.THOUGHT, "This is Klaus Mueller's plan for Monday: research at the library", 20, predicate="plan")
    add(NodeKind.THOUGHT, "Maria Lopez told me about the jazz concert", 30, predicate="learned from")
    add(NodeKind.REFLECTION, "Maria Lopez is a good friend who loves music", 40, evidence_ids=(0, 1))
    return stream

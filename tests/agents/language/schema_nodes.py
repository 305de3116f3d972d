"""Walking an answer schema node by node, and what Anthropic's structured outputs refuse of one: for the tests of
the schemas each provider is sent."""

# Anthropic's structured outputs refuse these (platform.claude.com, "JSON Schema limitations"); minItems only 0 or 1.
ANTHROPIC_REFUSES = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
                     "maxLength", "maxItems", "uniqueItems", "oneOf", "allOf", "not", "if"}  # fmt: skip


def nodes(schema, depth=0):
    """Every schema node with its object depth (property names are not nodes)."""
    if isinstance(schema, list):
        for item in schema:
            yield from nodes(item, depth)
        return
    if not isinstance(schema, dict):
        return
    yield schema, depth
    for key, value in schema.items():
        if key in {"properties", "$defs"}:
            for child in value.values():
                yield from nodes(child, depth + 1)
        elif key in {"items", "anyOf", "prefixItems"}:
            yield from nodes(value, depth)

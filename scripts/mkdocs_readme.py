"""A mkdocs hook: the site's home page is README.md itself, included by pymdownx.snippets, its links made the site's.

README.md links the pages as a reader of the repository sees them (`docs/cli.md`, `docs/img/page.png`); in the site
the home page stands inside docs/, so the same links lose their `docs/` prefix. The rewrite runs as a Markdown
preprocessor right after the snippets one (priority 32), on every page: no page of the site links `docs/...` itself.
"""

import re

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

# A Markdown link or image target that starts with docs/: ](docs/page.md) or ](docs/img/x.png).
DOCS_PREFIX = re.compile(r"\]\(docs/")


class SiteLinks(Preprocessor):
    """Turns `](docs/...)` into `](...)` in the page's lines."""

    def run(self, lines: list[str]) -> list[str]:
        """The lines with each link into docs/ made relative to the site's root."""
        return [DOCS_PREFIX.sub("](", line) for line in lines]


class SiteLinksExtension(Extension):
    """Registers SiteLinks to run after pymdownx.snippets has included README.md."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Markdown's own name
        """Adds the preprocessor below snippets' priority (32), so it sees the included text."""
        md.preprocessors.register(SiteLinks(md), "site_links", 31)


def on_config(config):
    """Adds the extension to the site's Markdown extensions (mkdocs accepts an instance in the list)."""
    config.markdown_extensions.append(SiteLinksExtension())
    return config

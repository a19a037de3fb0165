"""Notes' Markdown as safe HTML: agents write whatever they are told to, so nothing in a note may run.

Two layers: markdown-it renders CommonMark with raw HTML turned into text, then nh3 keeps only an
allow-list of tags, attributes and URL schemes (a link to javascript: or data: loses its href).
Images become links to the image: an image URL in a note would otherwise make every reader's browser
call it.
"""

from __future__ import annotations

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

_RENDERER = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable(
    ["table", "strikethrough"]
)

ALLOWED_TAGS = {
    "a", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li",
    "ol", "p", "pre", "s", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "ol": {"start"},
    "th": {"style"},
    "td": {"style"},
}
URL_SCHEMES = {"http", "https", "mailto"}
LINK_REL = "nofollow noopener noreferrer"

_LANGUAGES = (
    "bash", "c", "cpp", "css", "diff", "go", "html", "java", "javascript", "js", "json", "kotlin",
    "markdown", "md", "php", "python", "py", "ruby", "rust", "sh", "shell", "sql", "swift", "text",
    "toml", "ts", "typescript", "xml", "yaml", "yml",
)  # fmt: skip


def _image_as_link(
    renderer: RendererHTML, tokens: list[Token], index: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[index]
    alt = renderer.renderInlineAsText(token.children or [], options, env) or "image"
    return f'<a href="{escapeHtml(str(token.attrs.get("src", "")))}">{escapeHtml(alt)} (image)</a>'


_RENDERER.add_render_rule("image", _image_as_link)


def render_markdown(text: str) -> SafeString:
    return mark_safe(sanitise(_RENDERER.render(text)))  # noqa: S308 - sanitised to the allow-list


def sanitise(html: str) -> str:
    """Only the allow-listed tags, attributes and URL schemes of `html` survive; the rest is dropped
    (a disallowed tag's text stays, a script's or style's content does not)."""
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel=LINK_REL,
        # Fenced code's language hint (class="language-python") is all a class may say; table
        # alignment is all a style may say.
        allowed_classes={"code": {f"language-{name}" for name in _LANGUAGES}},
        filter_style_properties={"text-align"},
    )

"""Notes' Markdown renders to HTML in which nothing can run: no script, no raw HTML, no event
handlers, no javascript: or data: URLs; links get rel="nofollow noopener"."""

from __future__ import annotations

import pytest

from web.markdown import render_markdown, sanitise


def test_commonmark_renders():
    html = render_markdown(
        "# Retries\n\n**Three** times, see [docs](https://example.com/retries).\n\n- a\n- b"
    )
    assert "<h1>Retries</h1>" in html
    assert "<strong>Three</strong>" in html
    assert '<a href="https://example.com/retries" rel="nofollow noopener noreferrer">docs</a>' in html
    assert "<ul>" in html and "<li>a</li>" in html


def test_code_tables_and_strikethrough():
    html = render_markdown("```python\nx = 1 < 2\n```\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n~~old~~")
    assert '<pre><code class="language-python">x = 1 &lt; 2\n</code></pre>' in html
    assert '<td style="text-align:right">2</td>' in html
    assert "<s>old</s>" in html


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        "Hi <script src='https://evil.test/x.js'></script> there",
        "<img src=x onerror=alert(1)>",
        '<a href="https://a.test" onclick="alert(1)">x</a>',
        "<iframe src='https://evil.test'></iframe>",
        "<div style='position:fixed' onmouseover='alert(1)'>x</div>",
    ],
)
def test_raw_html_is_text_not_markup(text):
    html = render_markdown(text)
    assert "<script" not in html and "<img" not in html and "<iframe" not in html and "<div" not in html
    assert "<a " not in html
    assert "&lt;" in html  # shown as text, so a reader sees what the agent wrote


@pytest.mark.parametrize(
    "text",
    [
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click](java\tscript:alert(1))",
        "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
        "[click](vbscript:msgbox(1))",
        "<javascript:alert(1)>",
        "![x](javascript:alert(1))",
        '[click](https://a.test "x\\" onmouseover=\\"alert(1)")',
    ],
)
def test_dangerous_links_lose_their_target(text):
    html = render_markdown(text).lower()
    assert 'href="javascript' not in html and 'href="data' not in html and 'href="vbscript' not in html
    assert ' onmouseover="' not in html  # an attribute, as opposed to escaped text inside a title


def test_images_become_links_so_no_reader_loads_them():
    html = render_markdown("![diagram of the flow](https://cdn.test/flow.png)")
    assert "<img" not in html
    assert (
        '<a href="https://cdn.test/flow.png" rel="nofollow noopener noreferrer">diagram of the flow (image)</a>'
        in html
    )


def test_the_sanitiser_alone_strips_what_markdown_would_never_emit():
    html = sanitise(
        '<p onclick="x()">t</p><a href="javascript:alert(1)" onmouseover="y">l</a>'
        "<script>bad()</script><style>p{}</style><svg onload=alert(1)></svg>"
        '<code class="evil language-python">c</code><td style="background:url(x)">d</td>'
    )
    assert "onclick" not in html and "onmouseover" not in html and "onload" not in html
    assert "javascript" not in html and "script" not in html and "bad()" not in html
    assert "<svg" not in html and "<style" not in html and "p{}" not in html
    assert 'class="language-python"' in html and "evil" not in html
    assert "url(" not in html
    assert '<a rel="nofollow noopener noreferrer">l</a>' in html

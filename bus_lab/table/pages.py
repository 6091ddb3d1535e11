"""The HTML pages of the class table: complete documents, one function per page.

Every page is a plain HTML document whose behaviour comes from one ES module,
``static/table.js``, loaded with ``<script type="module" src=...>`` (the pages have no inline
script: the server's Content-Security-Policy is ``script-src 'self'``). The module reads which page
it is on from ``<body data-page=... data-code=...>``:

* ``join``    ``GET /``                the code and name form (``?code=ABCDE`` pre-fills the code);
* ``seat``    ``GET /t/{code}``        one student's seat (the seat's secret stays in the browser's
  ``localStorage`` under ``bus_lab.table.<CODE>``);
* ``watch``   ``GET /watch/{code}``    the projector: the public view, the join code and address;
* ``host``    ``GET /host/{code}``     the teacher's page (the host key is in the URL *fragment*
  ``#key=...``, so it never reaches the server in a request line or a log).

Every URL inside a page is *relative* (``static/table.js`` from ``/``, ``../static/table.js``
from ``/t/CODE``), so the pages also work behind a path prefix such as
``/user/ana/proxy/8765/``; the module finds the websocket (``ws`` beside ``static/``) from its
own address. Every text put into a page is escaped with :func:`html.escape`.

Example::

    from bus_lab.table.pages import join_page, seat_page
    html = join_page("ABCDE")      # the join form with the code filled in
    html = seat_page("ABCDE")      # served at /t/ABCDE
"""

from __future__ import annotations

from html import escape

from bus_lab.table.codes import ALPHABET

__all__ = [
    "ALPHABET",
    "host_page",
    "join_page",
    "seat_page",
    "unknown_table_page",
    "watch_page",
]

#: Longest code text kept from a query string or a path (longer text is cut, never echoed whole).
MAX_CODE_CHARS = 12
#: Default longest name a person may type (the table's ``Limits.max_name_chars`` is the rule).
DEFAULT_NAME_CHARS = 20

NOSCRIPT = (
    '<noscript><p class="tl-error">This page needs JavaScript to reach the table. '
    "Turn JavaScript on, or use another browser.</p></noscript>"
)


def _code_text(code: str | None) -> str:
    """A code as it may be shown: upper-case letters and digits of the code alphabet only, cut to
    :data:`MAX_CODE_CHARS` (anything else a link carried is dropped)."""
    if not code:
        return ""
    return "".join(c for c in str(code).upper() if c in ALPHABET)[:MAX_CODE_CHARS]


def _document(
    *,
    title: str,
    page: str,
    main: str,
    root: str,
    code: str = "",
    script: bool = True,
    extra_class: str = "",
) -> str:
    """A whole page: head (style sheets, the module), ``<body data-page data-code>``, ``main``.

    Args:
        title (str): the tab's title (escaped here).
        page (str): ``join``, ``seat``, ``watch``, ``host`` or ``unknown`` (the module's switch).
        main (str): the page's own HTML (already escaped where it carries text).
        root (str): the relative path from the page to the server's root (``""`` or ``"../"``).
        code (str): the table's code (a well-formed code only; escaped here).
        script (bool): load ``static/table.js``.
        extra_class (str): a class added to ``<body>``.
    """
    r = escape(root, quote=True)
    module = f'<script type="module" src="{r}static/table.js"></script>\n' if script else ""
    classes = f"tl-body tl-page-{escape(page, quote=True)}"
    if extra_class:
        classes += " " + escape(extra_class, quote=True)
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{r}static/board.css">\n'
        f'<link rel="stylesheet" href="{r}static/table.css">\n'
        f'<link rel="icon" type="image/svg+xml" href="{r}static/icon.svg">\n'
        f"{module}"
        "</head>\n"
        f'<body class="{classes}" data-page="{escape(page, quote=True)}" data-code="{escape(code, quote=True)}">\n'
        f"{main}\n"
        "</body>\n</html>\n"
    )


def _status_line() -> str:
    """The connection line every live page has (filled by the module)."""
    return (
        '<div id="tl-conn" class="tl-conn" role="status" aria-live="polite" data-state="connecting">'
        '<span class="tl-conn-text">Connecting to the table…</span> '
        '<button type="button" class="tl-btn tl-conn-retry" id="tl-retry" hidden>Reconnect now</button>'
        "</div>"
    )


def _name_form(code: str, *, with_code: bool, max_name_chars: int) -> str:
    """The code (optional) and name form of the join and seat pages."""
    code_field = ""
    if with_code:
        code_field = (
            '<div class="tl-field">'
            '<label for="tl-code">Table code</label>'
            f'<input id="tl-code" name="code" value="{escape(code, quote=True)}" required '
            'autocomplete="off" autocapitalize="characters" autocorrect="off" spellcheck="false" '
            f'maxlength="{MAX_CODE_CHARS}" aria-describedby="tl-code-help" class="tl-input tl-code-input">'
            '<small id="tl-code-help" class="tl-help">The letters and digits on the board or the '
            "teacher's screen, e.g. K7QRM.</small>"
            "</div>"
        )
    return (
        '<form id="tl-join-form" class="tl-form" method="get" action="" autocomplete="off">'
        f"{code_field}"
        '<div class="tl-field">'
        '<label for="tl-name">Your name</label>'
        f'<input id="tl-name" name="name" required maxlength="{int(max_name_chars)}" '
        'autocomplete="nickname" autocapitalize="words" spellcheck="false" class="tl-input" '
        'aria-describedby="tl-name-help">'
        f'<small id="tl-name-help" class="tl-help">What the others see (at most {int(max_name_chars)} '
        "characters).</small>"
        "</div>"
        '<button type="submit" class="tl-btn tl-primary tl-big" id="tl-join">Join the table</button>'
        '<p id="tl-form-error" class="tl-error" role="alert"></p>'
        "</form>"
    )


def join_page(code: str | None = None, *, root: str = "", max_name_chars: int = DEFAULT_NAME_CHARS) -> str:
    """The join page (``GET /``): a code and a name, then the seat on the same page.

    Args:
        code (str | None): the ``?code=`` of the link (a QR code carries it); only the letters of the
            code alphabet are kept, so anything else a link carries never reaches the page.
        root (str): relative path from the page to the server's root (``""`` at ``/``).
        max_name_chars (int): longest name the form accepts (the table's limit).

    Returns:
        str: the HTML document.
    """
    shown = _code_text(code)
    main = (
        '<main id="tl-main" class="tl-main tl-join">'
        '<div id="tl-intro" class="tl-intro">'
        "<h1>Join a table</h1>"
        '<p class="tl-lead">Type the code your teacher shows, and your name.</p>'
        f"{_name_form(shown, with_code=True, max_name_chars=max_name_chars)}"
        f"{NOSCRIPT}"
        "</div>"
        '<div id="tl-app" class="tl-app" hidden></div>'
        "</main>"
    )
    return _document(title="Join a table · bus_lab", page="join", main=main, root=root, code=shown)


def seat_page(code: str, *, root: str = "../", max_name_chars: int = DEFAULT_NAME_CHARS) -> str:
    """A student's seat (``GET /t/{code}``).

    The module resumes the seat with the secret kept in this browser (``localStorage``
    ``bus_lab.table.<CODE>``); without one it shows the name form (joining is open in the lobby).

    Args:
        code (str): the table's code.
        root (str): relative path to the server's root (``"../"`` at ``/t/CODE``).
        max_name_chars (int): longest name the form accepts.
    """
    shown = _code_text(code)
    main = (
        '<main id="tl-main" class="tl-main tl-seat">'
        f'<header class="tl-head"><p class="tl-where">Table <b class="tl-code">{escape(shown)}</b></p>'
        f"{_status_line()}</header>"
        '<section id="tl-joinbox" class="tl-joinbox" hidden aria-labelledby="tl-join-title">'
        '<h1 id="tl-join-title">Join this table</h1>'
        f"{_name_form(shown, with_code=False, max_name_chars=max_name_chars)}"
        "</section>"
        f"{NOSCRIPT}"
        '<div id="tl-app" class="tl-app"></div>'
        f'<p class="tl-foot"><a href="{escape(root, quote=True)}">Join another table</a></p>'
        "</main>"
    )
    return _document(title=f"Table {shown} · bus_lab", page="seat", main=main, root=root, code=shown)


def watch_page(code: str, *, root: str = "../", join_url: str | None = None) -> str:
    """The projector (``GET /watch/{code}``): the public board, big enough to read from the back
    of a classroom, with the join code and the address to type.

    Args:
        code (str): the table's code.
        root (str): relative path to the server's root (``"../"`` at ``/watch/CODE``).
        join_url (str | None): the join address to show (e.g. ``http://192.168.1.20:8765/``),
            also drawn as a QR code that opens the join page with the code filled in. When None
            the module shows the address the projector itself reached the server at (no QR code).
    """
    shown = _code_text(code)
    address = escape(_address_text(join_url), quote=True) if join_url else ""
    qr = _qr_svg(f"{join_url}?code={shown}" if join_url and shown else "")
    main = (
        '<main id="tl-main" class="tl-main tl-watch">'
        '<header class="tl-head tl-watch-head">'
        '<p class="tl-watch-join">Join at '
        f'<b id="tl-address" class="tl-address" data-address="{address}">{address}</b> '
        f'with the code <b class="tl-code tl-code-big">{escape(shown)}</b></p>'
        f"{qr}"
        f"{_status_line()}</header>"
        f"{NOSCRIPT}"
        '<div id="tl-app" class="tl-app"></div>'
        "</main>"
    )
    return _document(
        title=f"Table {shown} (projector) · bus_lab", page="watch", main=main, root=root, code=shown
    )


def _address_text(url: str | None) -> str:
    """A join address as people type it: without ``http://`` and a lone trailing ``/``."""
    text = str(url or "")
    if text.startswith("http://"):
        text = text[len("http://") :]
    return text[:-1] if text.endswith("/") and text.count("/") == 1 else text


def _qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG (scales with CSS), or ``""`` for no URL."""
    if not url:
        return ""
    import segno

    svg = segno.make(url, error="m").svg_inline(border=2, omitsize=True, dark="#000", light="#fff")
    return (
        f'<figure class="tl-qr" aria-label="QR code of the join page: {escape(url, quote=True)}">'
        f"{svg}</figure>"
    )


def host_page(code: str, *, root: str = "../") -> str:
    """The teacher's page (``GET /host/{code}``): the lobby form, the seats and the controls.

    The host key travels in the URL fragment (``#key=...``); the module sends it in the ``host``
    hello and keeps it out of the address bar's history afterwards. The form (game, options,
    people or bots per seat, bot policy, seed) is built from the options schema in the host frame.

    Args:
        code (str): the table's code.
        root (str): relative path to the server's root (``"../"`` at ``/host/CODE``).
    """
    shown = _code_text(code)
    main = (
        '<main id="tl-main" class="tl-main tl-host">'
        '<header class="tl-head">'
        f'<h1>Hosting table <b class="tl-code">{escape(shown)}</b></h1>'
        '<p class="tl-where">Students join at <b id="tl-address" class="tl-address"></b> with this code. '
        f'<a id="tl-watch-link" href="{escape(root, quote=True)}watch/{escape(shown, quote=True)}" '
        'target="_blank" rel="noopener">Open the projector page</a></p>'
        f"{_status_line()}</header>"
        '<p id="tl-host-message" class="tl-message" role="alert"></p>'
        '<section class="tl-panel" aria-labelledby="tl-controls-title">'
        '<h2 id="tl-controls-title">Game</h2>'
        '<p id="tl-phase" class="tl-phase"></p>'
        '<div id="tl-controls" class="tl-controls"></div>'
        "</section>"
        '<section id="tl-lobby" class="tl-panel" aria-labelledby="tl-lobby-title" hidden>'
        '<h2 id="tl-lobby-title">Settings</h2>'
        '<form id="tl-lobby-form" class="tl-form tl-lobby-form" autocomplete="off"></form>'
        "</section>"
        '<section class="tl-panel" aria-labelledby="tl-seats-title">'
        '<h2 id="tl-seats-title">Seats</h2>'
        '<ul id="tl-seat-list" class="tl-seat-list"></ul>'
        "</section>"
        '<section class="tl-panel" aria-labelledby="tl-board-title">'
        '<h2 id="tl-board-title">What the projector shows</h2>'
        '<div id="tl-app" class="tl-app"></div>'
        "</section>"
        f"{NOSCRIPT}"
        "</main>"
    )
    return _document(title=f"Host table {shown} · bus_lab", page="host", main=main, root=root, code=shown)


def unknown_table_page(code_text: str, *, root: str = "../") -> str:
    """The page for a code with no open table (served with status 404).

    Args:
        code_text (str): what the address carried (shown escaped, cut to a few characters).
        root (str): relative path to the join page (``"../"`` at ``/t/CODE``).
    """
    text = str(code_text or "")[:MAX_CODE_CHARS]
    code = _code_text(code_text)
    back = escape(root, quote=True)
    link = f"{back}?code={escape(code, quote=True)}" if code else back
    main = (
        '<main id="tl-main" class="tl-main tl-unknown">'
        "<h1>No table with this code</h1>"
        f'<p class="tl-lead">There is no open table with the code <b class="tl-code">{escape(text)}</b>. '
        "The code may be mistyped, or the table has closed.</p>"
        f'<p><a class="tl-btn tl-primary tl-big" href="{link}">Back to the join page</a></p>'
        "</main>"
    )
    return _document(title="No such table · bus_lab", page="unknown", main=main, root=root, code=code)

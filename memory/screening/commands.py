"""Passwords given on a command line or in a client's credentials file, and HTTP Basic credentials.

Each family reads one tool's own syntax: `curl -u user:password`, `mysql -pPASSWORD`,
`docker login -p PASSWORD`, `sshpass -p PASSWORD`, a `.netrc` line (`machine h login u password p`)
and an `Authorization: Basic …` header (base64 of `user:password`). The password then passes when
it is a reference (`"$DB_PASSWORD"`, `$(cat /run/secrets/db)`), a placeholder (`<password>`,
`changeme`, `YOUR_API_KEY`) or, on a developer's own machine, a default account password
(`mysql -uroot -proot`, `curl -u admin:admin http://localhost:9200`), as in connection strings.
Prompting forms hold no password and never match: `mysql -p` followed by a space,
`docker login --password-stdin`, `sshpass -e`, `curl -u user` without a colon.

Limit: a password in an option of a tool not named here (`wget --password=…` is left to
secret_assignment), or split over lines other than backslash continuations.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable

from memory.screening import benign
from memory.screening.engine import linear
from memory.screening.family import MAX_VALUE, Family, Match, secret

# A password as the shell sees it: quoted (anything but the quote), or a bare word.
_VALUE = r"(?P<secret>'[^'\n]{1,200}'|\"[^\"\n]{1,200}\"|[^\s'\"]{1,200})"
# The rest of the same command, across backslash continuations ("curl \<newline>  -u …"), never
# past a pipe, a list or a background operator: the next command's -p is its own (docker run -p 80:80).
_SAME_COMMAND = r"(?:[^\n;|&]|\\\r?\n)*?"

# Hosts a command names: a URL's, user@host, mysql's -h / --host, .netrc's machine, a bare loopback
# name. Python's re on a bounded window (one command line, at most the validator's window).
_HOSTS = re.compile(
    r"://(?:[^\s/@]*@)?(\[[0-9A-Fa-f:.]+\]|[\w.-]+)|@([\w.-]+)|(?:\s-h[ \t]*|--host[= ])['\"]?([\w.-]+)"
    r"|\bmachine[ \t]+(\S+)|(?<![\w.-])(localhost|127\.0\.0\.1)(?![\w-])"
)
_USER = re.compile(r"(?:\s-u[ \t]*|--user(?:name)?[= ]|\blogin[ \t]+)['\"]?([^\s'\":]+)")
# Documentation's own examples: RFC 7617 section 2 (and MDN) spell Basic credentials with these.
_DOCUMENTED = frozenset({"Aladdin:open sesame"})


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _command(match: Match) -> str:
    """The command line the match sits on, continuations included, within the validator's window."""
    text, start, end = match.string, match.start(), match.end()
    begin = text.rfind("\n", 0, start) + 1
    stop = text.find("\n", end)
    while stop > 0 and text[stop - 1] == "\\":
        stop = text.find("\n", stop + 1)
    return text[begin : stop if stop >= 0 else len(text)]


def _local(command: str, default_local: bool) -> bool:
    hosts = [next(h for h in found.groups() if h) for found in _HOSTS.finditer(command)]
    return all(benign.local_host(host) for host in hosts) if hosts else default_local


def credential(user: str, password: str, command: str, *, default_local: bool = False) -> bool:
    """Whether `password` (given for `user` in `command`) is a real one."""
    password = password[:128]
    if benign.placeholder_value(password) or benign.reference(password):
        return False
    return not (benign.development_default(password, user) and _local(command, default_local))


def _password_option(*, default_local: bool = False) -> Callable[[Match], bool]:
    def validate(match: Match) -> bool:
        command = _command(match)
        user = _USER.search(command)
        password = _unquoted(secret(match))
        return credential(user.group(1) if user else "", password, command, default_local=default_local)

    return validate


def _user_password(match: Match) -> bool:
    # curl -u user:password; without a colon curl asks for the password.
    user, colon, password = _unquoted(secret(match)).partition(":")
    return bool(colon) and credential(user, password, _command(match))


def _basic(match: Match) -> bool:
    encoded = secret(match)[:MAX_VALUE]
    try:
        decoded = base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    user, colon, password = decoded.partition(":")
    if not colon or not decoded.isprintable() or decoded in _DOCUMENTED:
        return False
    return credential(user, password, _command(match))


FAMILIES: tuple[Family, ...] = (
    # Authorization (or Proxy-Authorization) headers with Basic credentials, in curl's -H, HTTP
    # transcripts, code and config. Text that is not base64 of "user:password" passes.
    Family(
        "basic_auth_header",
        "a password in an HTTP Basic Authorization header",
        linear(
            r"(?i)authorization[\"']?[ \t]*[:=][ \t]*[\"']?basic[ \t]+(?P<secret>[A-Za-z0-9+/]{8,}={0,2})"
        ),
        _basic,
    ),
    Family(
        "curl_password",
        "a password given to curl -u",
        linear(r"\bcurl\b" + _SAME_COMMAND + r"[ \t](?:-[A-Za-z]{0,4}u[ \t]*|--user(?:[ \t]+|=))" + _VALUE),
        _user_password,
    ),
    # .netrc (and _netrc) entries: machine, login, password, possibly over several lines.
    Family(
        "netrc_password",
        "a password in a .netrc entry",
        linear(
            r"(?:\bmachine[ \t]+\S+|\bdefault)(?:\s+account[ \t]+\S+)?\s+login[ \t]+\S+"
            r"(?:\s+account[ \t]+\S+)?\s+password[ \t]+(?P<secret>\S+)"
        ),
        _password_option(),
    ),
    # The MySQL and MariaDB clients take the password glued to -p (-pS3cret); "-p" alone prompts.
    # Without -h they connect to localhost, where default passwords are development defaults.
    Family(
        "mysql_password",
        "a password on a MySQL command line",
        linear(
            r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlsh|mysqlslap|mariadb|mariadb-dump)\b"
            + _SAME_COMMAND
            + r"[ \t](?:-p|--password=)"
            + _VALUE
        ),
        _password_option(default_local=True),
    ),
    Family(
        "docker_login_password",
        "a password given to docker login",
        linear(
            r"\b(?:docker|podman|buildah|skopeo|nerdctl|oras|helm[ \t]+registry)[ \t]+login\b"
            + _SAME_COMMAND
            + r"[ \t](?:-p[ \t]*|-p=|--password(?:[ \t]+|=))"
            + _VALUE
        ),
        _password_option(),
    ),
    # sshpass -p PASSWORD before the command it runs (only flags without arguments may come first,
    # so the command's own -p, ssh's port, is never read).
    Family(
        "sshpass_password",
        "a password given to sshpass",
        linear(r"\bsshpass(?:[ \t]+-[vVh])*[ \t]+-p[ \t]*" + _VALUE),
        _password_option(),
    ),
)

"""Command-line passwords, .netrc entries and Basic credentials (memory/screening/commands.py, issue 20
point 4): refused through the gate; prompting forms, references, placeholders and a developer's own
defaults let through."""

from __future__ import annotations

import pytest

from memory.screening.gate import screen

POSITIVES = {
    "basic_auth_header": [
        "Authorization: Basic ZGVwbG95OlZ4NyNxTG0yUnA5dw==",
        "curl -H 'Authorization: Basic c3ZjLW1ldHJpY3M6dDhRZSEycExrOVpy' https://metrics.acme.io",
        'headers = {"Proxy-Authorization": "Basic YW5hQGFjbWUuaW86TnE0JHdFN3JUeTJ1"}',
    ],
    "curl_password": [
        "curl -s -u deploy:CJ3BLT+apEFW https://ci.acme.io/api/json",
        "curl -fsS \\\n  --user 'ops:9Kbq4N#J6a5U' \\\n  https://registry.acme.io/v2/_catalog",
        "curl --user=admin:euWh55%sInuS https://grafana.acme.io/api/health",
    ],
    "netrc_password": [
        "machine api.heroku.com login ana@acme.io password InBKTk!bRcd8",
        "machine git.acme.io\n  login deploy\n  password IleNho%qpaye\n",
    ],
    "mysql_password": [
        "mysql -h db.acme.io -u app -payh2Pe%NBeKC app_prod",
        "mysqldump -uroot -p'FHyyp7+3Tsoh' --all-databases > dump.sql",
        "mariadb --host=10.2.0.7 -uapp -p3yAlBA+iMgDH shop",
    ],
    "docker_login_password": [
        "docker login -u ci -p m5mToq#hmdbO registry.acme.io",
        "podman login quay.io -u bot -p xq7h7H+2OeNz",
    ],
    "sshpass_password": [
        "sshpass -p 'fbxie1#EamXs' ssh deploy@10.0.4.12",
        "sshpass -v -ptijl1m%urm9x scp build.tgz ops@bastion.acme.io:/srv",
    ],
}
TWINS = {
    "basic_auth_header": [
        "Authorization: Basic <base64 of user:password>",
        "Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==",  # RFC 7617's own example
        'Authorization: Basic $(echo -n "$USER:$PASS" | base64)',
        "Authorization: Basic dXNlcm5hbWU6cGFzc3dvcmQ=",  # username:password
    ],
    "curl_password": [
        "curl -u admin:admin http://localhost:9200/_cat/indices",
        'curl -u "$API_USER:$API_PASSWORD" https://api.acme.io',
        "curl -u alice https://files.acme.io",
        "curl -s --user 'api:YOUR_API_KEY' https://api.mailgun.net/v3/domain/messages",
        "docker run -u 1000:1000 alpine",
    ],
    "netrc_password": [
        "machine github.com login ana password <token>",
        "machine github.com login ana password $GITHUB_TOKEN",
        "machine learning login password reset flows",
    ],
    "mysql_password": [
        "mysql -u root -p app_dev",
        "mysql -uroot -proot",
        'mysql -h db.acme.io -u app -p"$MYSQL_PASSWORD"',
        "mysql -u app -p --protocol=tcp",
        "mysql -u root -p app; psql -p5433 app",
        "cat dump.sql | mysql -u root -p app | tee -pipe.log",
    ],
    "docker_login_password": [
        'echo "$CR_PAT" | docker login ghcr.io -u bot --password-stdin',
        'docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" "$CI_REGISTRY"',
        "docker login -p <password> registry.acme.io",
        "docker login ghcr.io && docker run -p 8080:80 nginx",
    ],
    "sshpass_password": [
        "sshpass -e ssh -p 2222 deploy@bastion.acme.io",
        "sshpass -f ~/.ssh/pass ssh deploy@bastion.acme.io",
        'sshpass -p "$SSHPASS" ssh pi@raspberrypi.local',
    ],
}


def test_every_family_has_positives_and_twins():
    assert set(POSITIVES) == set(TWINS)


@pytest.mark.parametrize(("family", "text"), [(f, t) for f, texts in POSITIVES.items() for t in texts])
def test_the_password_is_refused_by_its_family(family, text):
    finding = screen({"content": f"Ran this on the box:\n{text}\nand it worked"})
    assert finding is not None and finding.family == family


@pytest.mark.parametrize(("family", "text"), [(f, t) for f, texts in TWINS.items() for t in texts])
def test_the_twin_passes(family, text):
    assert screen({"content": text}) is None, family


def test_a_default_password_passes_only_on_a_developers_machine():
    assert screen({"content": "curl -u admin:admin http://127.0.0.1:8080/api"}) is None
    remote = screen({"content": "curl -u admin:admin https://jenkins.acme.io/api"})
    assert remote is not None and remote.family == "curl_password"
    assert screen({"content": "mysql -uroot -proot"}) is None  # no -h: the client's localhost
    on_a_server = screen({"content": "mysql -h prod-db.acme.io -uroot -proot"})
    assert on_a_server is not None and on_a_server.family == "mysql_password"

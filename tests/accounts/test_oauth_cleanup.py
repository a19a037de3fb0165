"""Registrations are anonymous, so the ones that never obtained a token are deleted after a day by
a periodic task (also a management command); anything that was used, or is young, stays."""

from __future__ import annotations

from datetime import timedelta

from django.core.management import call_command
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application
from oauth2_provider.settings import oauth2_settings

from accounts.models import OAuthConnection
from accounts.tasks import delete_unused_oauth_registrations
from tests.accounts.oauth_tokens import dcr_application, issue


def _aged(application: Application, hours: int) -> Application:
    Application.objects.filter(pk=application.pk).update(created=timezone.now() - timedelta(hours=hours))
    return application


def _registration_token(application: Application) -> None:
    AccessToken.objects.create(
        application=application,
        token="registration",
        expires=timezone.now() + timedelta(hours=1),
        scope=oauth2_settings.DCR_REGISTRATION_SCOPE,
    )


def test_the_periodic_task_deletes_day_old_registrations_that_never_got_a_token(cast):
    never_used = _aged(dcr_application("never used"), 25)
    only_registration_token = _aged(dcr_application("registered only"), 25)
    _registration_token(only_registration_token)
    _aged(dcr_application("young"), 23)
    used = _aged(dcr_application("used"), 48)
    issue(cast.member, cast.acme, application=used)
    revoked_since = _aged(dcr_application("used, tokens gone"), 48)
    issue(cast.member, cast.acme, application=revoked_since)
    AccessToken.objects.filter(application=revoked_since).delete()
    manual = _aged(dcr_application("by hand"), 48)
    Application.objects.filter(pk=manual.pk).update(registration_source=Application.RegistrationSource.MANUAL)

    # Celery's "no join inside a task" guard is one flag for the whole process, raised while any
    # thread runs an eager task (a server thread of an earlier test may); this join is not in a task.
    assert delete_unused_oauth_registrations.delay().get(disable_sync_subtasks=False) == 2

    remaining = set(Application.objects.values_list("name", flat=True))
    assert remaining == {"young", "used", "used, tokens gone", "by hand"}
    assert not Application.objects.filter(pk__in=[never_used.pk, only_registration_token.pk]).exists()


def test_consents_whose_code_was_never_exchanged_are_deleted_with_them(cast):
    application = dcr_application()
    stale = OAuthConnection.objects.create(user=cast.member, application=application, team=cast.acme)
    OAuthConnection.objects.filter(pk=stale.pk).update(created_at=timezone.now() - timedelta(days=2))
    fresh = OAuthConnection.objects.create(user=cast.member, application=application, team=cast.acme)
    delete_unused_oauth_registrations()
    assert list(OAuthConnection.objects.values_list("pk", flat=True)) == [fresh.pk]


def test_the_management_command_runs_it_by_hand(cast, capsys):
    _aged(dcr_application(), 30)
    call_command("delete_unused_oauth_registrations")
    assert "Deleted 1 unused OAuth registration(s)." in capsys.readouterr().out
    assert not Application.objects.exists()

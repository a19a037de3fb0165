"""Labelled retrieval set: the short typed notes agents write through `remember` and `checkpoint`.

Issue 14, point 1(b). Today's Harbor set (tests/retrieval/dataset.py) is one kind of text, longer
explanatory notes, and the fusion was tuned on it. This set is a different kind: terse 1-4 sentence
notes of every type, as coding agents write them mid-task ("Use pnpm, not npm: ..."), titles sometimes
given and sometimes derived from the first sentence the way `remember` derives them, checkpoint
hand-offs with their decisions / open items / failed approaches stored as notes of their own, and some
decisions superseded by later ones.

Five fictional projects, all stored in ONE Knownbase project so that each is a pool of distractors for
the others, and each has many notes about the same few components (hard negatives):
- fw: Fernwood, practice-management SaaS for veterinary clinics (Django, React, Celery, Stripe);
- qs: Quillstack, a documentation-site generator CLI in Rust;
- em: Ember, smart-thermostat firmware (Zephyr RTOS, nRF52840, BLE, Matter, MCUboot);
- cd: Cadence, a running and training mobile app (React Native / Expo, NestJS, GraphQL);
- or: Orchard, a grocery-price data platform (Airflow, dbt, Snowflake, Playwright scrapers).

Query kinds (each query is phrased as an agent about to start a task would ask, not with the note's
words):
- paraphrase: the answer described in other words;
- entity: hinges on an identifier, version, number, path or quoted string in the note;
- decision: "what did we decide / which X do we use and why";
- superseded: the topic of a replaced decision; the current note must outrank the old (`outranked`);
- failed: "did we already try X?", answered by a failed_approach note;
- task: what is next, open or blocked, answered by task / status / handoff notes.

FROZEN before any tuning: tests/retrieval/test_set_agent_notes.py pins this file's SHA-256. Do not
edit it to make a retriever look better; a new set is a new file.
Nothing runs at import time except building the lists; call validate() to check the invariants.
"""

from __future__ import annotations

import re
from typing import Literal, TypedDict

QueryKind = Literal["paraphrase", "entity", "decision", "superseded", "failed", "task"]
KINDS: tuple[QueryKind, ...] = ("paraphrase", "entity", "decision", "superseded", "failed", "task")


class AgentNote(TypedDict):
    # The keys the retrieval harness loads (those of tests/retrieval/dataset.LabelledNote) ...
    key: str
    type: str
    status: str
    title: str
    body: str
    tags: list[str]
    supersedes: list[str]
    # ... and where the note comes from.
    project: str  # the fictional project: fw, qs, em, cd or or
    origin: Literal["remember", "checkpoint"]
    title_given: bool  # False when the title was derived from the text, as remember does


class AgentQuery(TypedDict):
    query: str
    kind: QueryKind
    relevant: list[str]
    outranked: list[str]


NOTE_TYPES = frozenset(
    {
        "decision",
        "constraint",
        "architecture",
        "fact",
        "incident",
        "failed_approach",
        "procedure",
        "status",
        "task",
        "handoff",
        "preference",
        "reference",
    }
)


def _derive_title(content: str, limit: int = 80) -> str:
    # A copy of memory.validation.derive_title as it was when the set was frozen, so the set's
    # titles stay fixed even if the product's derivation changes.
    first_line = next((line for line in content.splitlines() if line.strip()), "")
    first_line = re.sub(r"^[#>*\-\s]+", "", first_line).strip()
    sentence = re.split(r"(?<=[.!?])\s", first_line, maxsplit=1)[0].rstrip(".")
    if len(sentence) <= limit:
        return sentence or "Untitled"
    cut = sentence[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"


# A remembered note: (key, type, title or None to derive it, space-separated tags, body).
_Raw = tuple[str, str, str | None, str, str]
# A checkpoint: (key, summary, decisions, open items, failed approaches, next actions). It becomes a
# handoff note `key` plus one note per decision (`key.d1`, ...), open item (`key.o1`, ...) and failed
# approach (`key.f1`, ...), exactly as the checkpoint tool stores them; next actions live in the handoff.
_Checkpoint = tuple[str, str, list[str], list[str], list[str], list[str]]
# A query: (text, kind, keys of the notes that answer it, keys of superseded notes it must outrank).
_Query = tuple[str, QueryKind, list[str], list[str]]


# The data is kept one note per few lines, as written, rather than one value per line.
# fmt: off
# ====================================================================================== Fernwood (fw)
_FW: list[_Raw] = [
    ("fw-arch-stack", "architecture", "Fernwood stack overview", "architecture backend",
     "Django 4.2 + DRF monolith (app `clinic`) serving a React 18 + TypeScript SPA built with Vite. "
     "Postgres 15 on Crunchy Bridge, Celery 5 workers on Redis. Deployed on Fly.io, primary region ams."),
    ("fw-dec-pnpm", "decision", None, "tooling frontend",
     "Use pnpm, not npm or yarn, in web/: the lockfile is pnpm-lock.yaml and CI runs "
     "`pnpm install --frozen-lockfile`. A stray package-lock.json breaks the Vite build cache."),
    ("fw-con-tenant-scope", "constraint", "Every tenant query must be scoped by clinic", "tenancy backend",
     "Queries on Patient, Appointment, Invoice etc. must go through `ClinicScopedManager.for_clinic()`. "
     "A bare `.objects.all()` on a tenant model is a bug; the check_tenant_scoping lint fails CI on it."),
    ("fw-arch-tenancy", "architecture", "Multi-clinic tenancy", "tenancy",
     "One schema, `clinic_id` FK on every tenant table. Group practices share a `Practice` row. Staff can "
     "belong to several clinics; the clinic picker sets `request.clinic` from the X-Clinic-Id header."),
    ("fw-fact-slots", "fact", None, "scheduling",
     "Appointment slots are 15 minutes; a booking spans 1-8 slots. Availability is computed on the fly from "
     "StaffShift minus existing appointments, never stored."),
    ("fw-arch-availability", "architecture", "How availability is computed", "scheduling",
     "`scheduling/availability.py::free_slots(clinic, date, staff=None)` intersects staff shifts, room "
     "bookings and procedure durations. Surgery needs a vet AND an operating room; consults need only a vet."),
    ("fw-con-double-booking", "constraint", None, "scheduling postgres",
     "Overlapping appointments for the same vet or room are blocked in the DB by an EXCLUDE USING gist "
     "constraint on tstzrange, not only in Python. Never drop it in a migration."),
    ("fw-inc-dst", "incident", "Appointments shifted an hour after DST", "scheduling timezone",
     "FW-388: after the March clock change, recurring shifts showed an hour late. We stored naive local "
     "times for shift templates. Fix: store wall-clock time + clinic tz, expand with zoneinfo."),
    ("fw-arch-reminders", "architecture", "Reminder pipeline", "reminders celery",
     "Celery beat runs `reminders.tasks.queue_due` every 10 min; it enqueues one `send_reminder` per due "
     "reminder. SMS via Twilio, email via the mail provider. Each Reminder row keeps attempts and the "
     "provider message id."),
    ("fw-con-quiet-hours", "constraint", None, "reminders sms",
     "No SMS between 20:00 and 08:00 clinic local time; anything due in that window waits until 08:00."),
    ("fw-inc-sms-dup", "incident", "Clients got the same vaccine reminder 3-4 times", "reminders sms",
     "FW-502: send_reminder retried on Twilio timeouts although the message had gone out. Fix: idempotency "
     "key `reminder:{id}` and a Twilio status lookup before any retry."),
    ("fw-fact-twilio-senders", "fact", None, "sms",
     "UK clinics send SMS from the alphanumeric sender 'Fernwood'; US clinics use a toll-free number because "
     "our A2P 10DLC brand registration is still pending. Service SID is in TWILIO_MESSAGING_SERVICE_SID."),
    ("fw-ref-idexx", "reference", "IDEXX VetConnect PLUS API", "labs integration",
     "Lab results come from the IDEXX VetConnect PLUS REST API v3. Sandbox creds: 1Password vault "
     "'Integrations'. `labs/idexx/mapper.py` maps analyte codes to our LabAnalyte table."),
    ("fw-fact-idexx-polling", "fact", None, "labs",
     "IDEXX doesn't push results. We poll `/results?since=` every 5 minutes per enabled clinic; their limit is "
     "60 requests/min per API key, shared by every clinic on that key."),
    ("fw-inc-glucose-units", "incident", None, "labs",
     "FW-611: Antech glucose arrived in mg/dL but our reference ranges are mmol/L, so every result was "
     "flagged high. Each analyte mapping now carries its source unit; conversion in labs/units.py."),
    ("fw-arch-invoicing", "architecture", "Invoices and payments", "billing",
     "Invoices are built from ChargeLines added during the visit. Front-desk payments use Stripe Terminal "
     "(WisePOS E readers); online payment links use Stripe Checkout."),
    ("fw-con-gapless", "constraint", None, "billing",
     "Invoice numbers must be gapless per clinic (UK VAT). Never use a Postgres SEQUENCE for them: sequences "
     "skip values on rollback. Use the invoice_sequence row with SELECT FOR UPDATE."),
    ("fw-fact-vat", "fact", None, "billing tax",
     "UK clinics charge 20% VAT on everything except some prescription diets; rates live in billing_taxrate "
     "keyed by country/state and product category."),
    ("fw-proc-release", "procedure", "Releasing Fernwood to production", "deploy",
     "Merge to main deploys staging. For prod: tag vYYYY.MM.DD-N; the release workflow runs "
     "`fly deploy --strategy bluegreen` and migrations in the release command. Watch Sentry for 15 min."),
    ("fw-con-migrations", "constraint", "Migrations must work with the previous release", "deploy postgres",
     "Blue-green keeps the old code serving during a deploy: add columns nullable, backfill in a separate "
     "task, drop a column only one release after the code stops reading it."),
    ("fw-pref-tests", "preference", None, "testing backend",
     "Owner wants pytest-style tests with factory_boy factories. No JSON fixtures, no Django TestCase "
     "subclasses in new tests."),
    ("fw-pref-state", "preference", None, "frontend",
     "Keep server state in TanStack Query; don't add Redux or Zustand. useState/useReducer for local UI state."),
    ("fw-arch-staff-auth", "architecture", "Staff authentication", "auth",
     "Staff log in with email + password + TOTP, or Google Workspace SSO where the practice enabled it. "
     "Django sessions in Redis; the SPA uses the session cookie plus CSRF header."),
    ("fw-con-client-magic-links", "constraint", None, "auth portal",
     "Pet owners never get passwords: the client portal uses single-use magic links valid 15 minutes. "
     "Don't add password login for clients."),
    ("fw-inc-magic-link-scanners", "incident", "Magic links consumed by mail scanners", "auth portal",
     "FW-455: Outlook Safe Links and Mimecast prefetched the link and used it up before the client clicked. "
     "Now GET shows a 'Sign in' button that POSTs the token; GET never consumes it."),
    ("fw-fact-observability", "fact", None, "observability",
     "Errors go to Sentry projects fernwood-api and fernwood-web, 10% performance sampling in prod. JSON "
     "logs to stdout, shipped by Fly to Better Stack."),
    ("fw-ref-pg-runbook", "reference", None, "postgres ops",
     "Postgres runbook (failover, PITR restore, connection limits): docs/runbooks/postgres.md. Crunchy "
     "Bridge support goes through a dashboard ticket, not email."),
    ("fw-fact-pgbouncer", "fact", None, "postgres",
     "Crunchy plan allows 100 connections, so PgBouncer runs in transaction mode in front: "
     "DISABLE_SERVER_SIDE_CURSORS = True and no session-level advisory locks anywhere."),
    ("fw-proc-local-setup", "procedure", "Local dev setup", "dev",
     "`make bootstrap`: venv via uv, Postgres + Redis via docker compose, loads seed_demo_clinic. Frontend: "
     "`pnpm -C web dev` on :5173, proxies /api to :8000."),
    ("fw-fact-patient-model", "fact", None, "records",
     "Patient = the animal: species, breed, sex, neutered, date_of_birth with a dob_estimated flag, microchip "
     "number, weights in WeightRecord. Owners are Client rows; a patient can have several co-owners."),
    ("fw-con-soap-append-only", "constraint", "Signed clinical notes are append-only", "records compliance",
     "Once a SOAP note is signed, edits create an Addendum row, never an UPDATE. RCVS and US state boards "
     "require the original to stay readable."),
    ("fw-arch-soap", "architecture", None, "records",
     "SOAP notes are stored as structured JSON (subjective/objective/assessment/plan) plus an HTML snapshot "
     "rendered at signing. Per-species templates live in records/templates/soap/."),
    ("fw-fact-controlled-drugs", "fact", "Controlled drug register", "pharmacy compliance",
     "Every dispense of a controlled drug (ketamine, methadone, buprenorphine) writes a ControlledDrugEntry "
     "with the running balance per bottle. Append-only; balances are recomputed nightly to catch drift."),
    ("fw-inc-cd-balance", "incident", None, "pharmacy",
     "FW-640: a methadone bottle showed a negative balance after two nurses dispensed at the same moment. The "
     "balance read wasn't locked; dispense() now does select_for_update on the bottle."),
    ("fw-fact-global-search", "fact", None, "search",
     "The global search box (clients, patients, phone numbers, microchips) uses pg_trgm GIN indexes on a "
     "denormalised search_document column."),
    ("fw-dec-no-elasticsearch", "decision", "No Elasticsearch for patient search", "search",
     "Decided against Elasticsearch: under 50k patients per clinic, pg_trgm gives <50 ms p95, and one fewer "
     "system to run. Revisit if a clinic group passes 500k patients."),
    ("fw-status-labs", "status", None, "labs",
     "IDEXX integration live at 14 clinics. Antech in pilot at Riverside and Holloway Road. In-house "
     "analysers (Vetscan) not started."),
    ("fw-task-clinic-export", "task", None, "records",
     "FW-715: full data export for clinics that leave (clients, patients, SOAP notes as PDF), due within 30 "
     "days of request by contract. Needs a Celery job that zips to object storage and emails a signed link."),
    ("fw-fact-attachments", "fact", None, "storage",
     "Attachments (x-rays, consent forms) go to Cloudflare R2 bucket fernwood-attachments-prod through the S3 "
     "API; presigned URLs last 10 minutes."),
    ("fw-fail-dicom-browser", "failed_approach", None, "imaging frontend",
     "Tried rendering DICOM in the browser with cornerstone.js: +1.8 MB bundle and Safari crashed on large CT "
     "series. Reverted; we show server-rendered JPEG previews and link out to the clinic's PACS viewer."),
    ("fw-fail-celery-eta", "failed_approach", "Celery eta= tasks for reminders", "reminders celery",
     "Scheduling each reminder as a Celery task with eta days ahead failed: the Redis visibility timeout (1h) "
     "redelivered them and they ran several times. Replaced by the queue_due beat task."),
    ("fw-fail-localstorage-token", "failed_approach", None, "auth frontend",
     "Tried caching a DRF token in localStorage to skip CSRF handling — XSS risk flagged in review, reverted "
     "to session cookie + CSRF."),
    ("fw-fact-csrf-cookie", "fact", None, "auth frontend",
     "The SPA reads CSRF from the `fw_csrftoken` cookie (renamed so it doesn't clash with the marketing site "
     "on the same parent domain) and sends it as X-CSRFToken."),
    ("fw-proc-new-clinic", "procedure", "Onboarding a new clinic", "onboarding",
     "`manage.py create_clinic --practice <slug> --country GB --tz Europe/London`, then "
     "`import_pms --format vetsoft|rxworks <file>`. Import is a dry run by default; --commit after the owner "
     "checks the report."),
    ("fw-fact-importers", "fact", None, "onboarding",
     "Supported legacy PMS imports: VetSoft CSV, RxWorks XML, ezyVet API. Cornerstone exports are not "
     "supported (proprietary format)."),
    ("fw-inc-import-encoding", "incident", None, "onboarding",
     "FW-590: an Irish clinic's RxWorks XML declared UTF-8 but held Windows-1252, mangling names like "
     "'Ó Briain'. Importer now falls back to cp1252 per field and logs it."),
    ("fw-pref-commits", "preference", None, "workflow",
     "Commit messages in imperative mood with the ticket: 'Fix reminder retry (FW-502)'. PRs are squash-merged."),
    ("fw-fact-flags", "fact", None, "flags",
     "Feature flags: django-waffle, per clinic via Flag groups. Names are snake_case prefixed with the area, "
     "e.g. labs_antech, sched_waitlist."),
    ("fw-arch-spa-routing", "architecture", None, "frontend",
     "SPA routing is React Router 6 with data loaders, one folder per area under web/src/routes. The "
     "calendar is FullCalendar premium; licence key in VITE_FULLCALENDAR_KEY."),
    ("fw-inc-calendar-slow", "incident", "Week view slow for big clinics", "scheduling frontend",
     "FW-667: week view took 6 s for a 20-vet clinic (1,400 events). Now we fetch only visible resources and "
     "turned on progressiveEventRendering."),
    ("fw-con-no-pii-logs", "constraint", None, "security",
     "Never log client names, phone numbers, emails or addresses — log client_id. Sentry has "
     "send_default_pii=False and a before_send scrubber for phone patterns."),
    ("fw-fact-backups", "fact", None, "postgres ops",
     "Crunchy keeps 14-day PITR. We also dump nightly to R2 bucket fernwood-backups, kept 90 days, encrypted "
     "with age."),
    ("fw-proc-restore-clinic", "procedure", None, "postgres ops",
     "To recover one clinic's data after a bad delete: PITR to a fork cluster, then "
     "`manage.py extract_clinic --clinic <id> --from-db <fork-url>` writes an SQL patch; review before applying."),
    ("fw-status-soc2", "status", None, "compliance",
     "SOC 2 Type I fieldwork done in May; Type II observation window runs to November. Evidence in Vanta; "
     "engineering owns access review and change management controls."),
    ("fw-fact-python-version", "fact", None, "backend",
     "Backend runs Python 3.12 on Django 4.2 LTS. The 5.1 upgrade is blocked until django-waffle ships a "
     "compatible release."),
    ("fw-fact-vaccine-schedule", "fact", None, "reminders records",
     "Vaccine due dates come from VaccineProtocol per species (e.g. canine DHPP booster yearly, rabies every "
     "3 years in most US states). Reminders are generated from due dates 4 weeks ahead."),
    ("fw-con-stripe-connect", "constraint", None, "billing stripe",
     "Each clinic is a Stripe Connect Standard account; funds never touch our platform balance. Always pass "
     "stripe_account=clinic.stripe_account_id — a missing header charges the platform account."),
    ("fw-inc-terminal-offline", "incident", None, "billing stripe",
     "FW-677: WisePOS E readers at Holloway Road went offline after the clinic's router update blocked "
     "outbound 443 to stripe-terminal-local-reader.net. Documented the firewall allowlist in the onboarding doc."),
    ("fw-fact-rate-limits", "fact", None, "api security",
     "DRF throttles: 20/min on login and magic-link endpoints per IP, 600/min per authenticated staff user. "
     "Throttle cache is the Redis db 2."),
    ("fw-ref-design-system", "reference", None, "frontend design",
     "UI components come from our Storybook at storybook.fernwood.internal (package @fernwood/ui, Radix + "
     "Tailwind). Check it before building a new dropdown or dialog."),
    ("fw-pref-a11y", "preference", None, "frontend",
     "Every new form needs labelled inputs and keyboard navigation; the product owner tests with VoiceOver "
     "before sign-off."),
    ("fw-fact-celery-queues", "fact", "Celery queues", "celery",
     "Queues: `default`, `reminders` (2 workers, rate-limited), `labs` (polling), `reports` (heavy PDFs, "
     "concurrency 1). Route new tasks explicitly in CELERY_TASK_ROUTES."),
    ("fw-inc-report-oom", "incident", None, "celery reports",
     "FW-681: the end-of-month revenue PDF for a 9-clinic group OOM-killed the reports worker (WeasyPrint on "
     "3,000 pages). Now split per clinic and merged with pypdf."),
    ("fw-task-waitlist", "task", "Appointment waitlist", "scheduling",
     "FW-702: clients join a waitlist for a full day; when a slot frees up the first matching entry gets an SMS "
     "offer. Model exists; offer flow and calendar UI still to do."),
    ("fw-task-sso-saml", "task", None, "auth",
     "FW-733: SAML SSO for the Vetcare Partners group (they use Azure AD). Evaluate python3-saml vs "
     "django-saml2-auth; Google SSO stays as is."),
    ("fw-status-django-upgrade", "status", None, "backend",
     "Django 5.1 upgrade branch `chore/django-51` passes tests except 3 drf-spectacular schema snapshots; "
     "paused until waffle 4.2 is released."),
    ("fw-fact-reminder-templates", "fact", "Reminder message templates", "reminders sms",
     "SMS reminder texts are per-clinic templates with {pet_name}, {date} and {clinic_phone}; max 306 "
     "characters (2 segments). Rendered by reminders/render.py."),
    ("fw-con-sms-opt-out", "constraint", "Respect SMS opt-outs", "reminders sms",
     "Clients who reply STOP are flagged sms_opt_out; never text them again, email only. Only the client "
     "replying START re-opts them in, never staff."),
    ("fw-fact-email-bounces", "fact", None, "reminders email",
     "Hard bounces from the email provider's webhook set Client.email_invalid; the front desk sees a red "
     "badge on the client card."),
    ("fw-proc-reminder-trace", "procedure", "Debugging a reminder that never arrived", "reminders",
     "Check the Reminder row (status, attempts, provider_message_id), then the Twilio log for that SID. "
     "`manage.py reminder_trace <reminder_id>` prints both."),
    ("fw-inc-canary-tz", "incident", None, "reminders timezone",
     "FW-530: a Canary Islands clinic created with Europe/Madrid got every reminder an hour early. "
     "create_clinic now requires --tz explicitly; there is no default."),
    ("fw-fail-sms-2fa", "failed_approach", "SMS codes for staff 2FA", "auth sms",
     "Tried Twilio Verify SMS codes for staff two-factor: £0.05 per login and SIM-swap concerns from the "
     "security review. Kept TOTP."),
    ("fw-fail-invoice-async", "failed_approach", None, "billing",
     "Tried assigning invoice numbers later in a Celery task to avoid row locks: numbers came out of order "
     "relative to invoice dates. Back to select_for_update on invoice_sequence."),
    ("fw-fact-stripe-webhooks", "fact", "Stripe webhooks", "billing stripe",
     "Stripe webhooks hit /api/stripe/webhook/, verified with STRIPE_WEBHOOK_SECRET. Events are stored in "
     "StripeEvent (unique event id) before processing, so replays are no-ops."),
    ("fw-inc-double-receipt", "incident", None, "billing stripe",
     "FW-598: a payment was marked paid twice (two receipts) when Stripe resent payment_intent.succeeded "
     "during a deploy. Fixed by the StripeEvent unique-id table."),
    ("fw-fact-estimates", "fact", None, "billing",
     "Estimates (treatment plans) are ChargeLines with status 'estimate'; accepting converts them to real "
     "charges on the visit. Clients sign estimates on the front-desk tablet."),
    ("fw-fact-insurance-claims", "fact", None, "billing insurance",
     "UK pet insurance claims (Petplan, Animal Friends) are generated as a claim-form PDF that the clinic "
     "submits through VetEnvoy themselves. No direct API yet."),
    ("fw-task-vetenvoy", "task", "Direct insurance claim submission", "billing insurance",
     "FW-741: submit claims directly through the VetEnvoy API instead of a PDF. Waiting on VetEnvoy partner "
     "onboarding; application sent 3 May."),
    ("fw-fact-room-kinds", "fact", None, "scheduling",
     "Room kinds: consult, operating, dental, x-ray, kennel. Kennel bookings are day-granular for "
     "hospitalised patients and don't use 15-minute slots."),
    ("fw-pref-api-naming", "preference", None, "api style",
     "DRF endpoints: plural nouns, kebab-case paths (/api/lab-results/), snake_case JSON fields, and "
     "drf-spectacular annotations on every new view."),
    ("fw-fact-roles", "fact", "Staff roles and permissions", "auth",
     "Roles: owner, vet, nurse, receptionist, read-only. Permissions are django-rules predicates in "
     "clinic/rules.py; only vets sign SOAP notes, only vets and nurses dispense controlled drugs."),
    ("fw-inc-receptionist-soap", "incident", None, "auth records",
     "FW-620: receptionists could read SOAP notes through the API list endpoint although the UI hid them. "
     "The viewset only had IsAuthenticated; it now checks records.view_soap per object."),
    ("fw-ref-api-schema", "reference", None, "api",
     "OpenAPI 3.1 schema at /api/schema/ (drf-spectacular), Redoc at /api/docs/ for logged-in staff only."),
    ("fw-fact-weights", "fact", None, "records pharmacy",
     "Weights are stored in grams as integers; the UI shows kg or lb per clinic setting. Dose calculators "
     "read the latest WeightRecord and warn when it is older than 30 days."),
    ("fw-con-dose-confirm", "constraint", None, "pharmacy safety",
     "Dose calculator output is a suggestion: the vet must confirm the dose before a dispense. Never "
     "auto-fill a dispense from the calculator without an explicit confirm click."),
    ("fw-proc-rotate-secret", "procedure", "Rotating a production secret", "security ops",
     "`fly secrets set NAME=...` (redeploys), confirm the app is healthy, then revoke the old value at the "
     "provider. Log the change in Vanta for SOC 2."),
    ("fw-fact-redis-dbs", "fact", None, "redis celery",
     "Redis (Upstash) holds the Celery broker in db 0, sessions in db 1, throttling in db 2. Policy is "
     "noeviction: a full Redis stops Celery, so watch memory."),
]

_FW_PAIRS: list[tuple[_Raw, _Raw]] = [
    (
        ("fw-dec-email-sendgrid", "decision", "Reminder emails through SendGrid", "reminders email",
         "Send reminder and receipt emails via SendGrid with a dedicated IP; templates stored in SendGrid."),
        ("fw-dec-email-postmark", "decision", None, "reminders email",
         "Moved transactional email from SendGrid to Postmark after Gmail started junking reminders from the "
         "shared pool. Templates now live in the repo (templates/email/) and are rendered by Django."),
    ),
    (
        ("fw-dec-hosting-heroku", "decision", None, "deploy",
         "Host on Heroku: Standard-2X web dynos, Heroku Postgres standard-0, Heroku Redis."),
        ("fw-dec-hosting-fly", "decision", "Host on Fly.io, not Heroku", "deploy",
         "Moved from Heroku to Fly.io (Postgres to Crunchy Bridge) to get EU regions close to the UK clinics "
         "and blue-green deploys. Heroku apps were deleted in February."),
    ),
    (
        ("fw-dec-pip-tools", "decision", None, "tooling backend",
         "Pin Python dependencies with pip-tools: edit requirements.in, run pip-compile, commit requirements.txt."),
        ("fw-dec-uv", "decision", None, "tooling backend",
         "Use uv for Python deps (pyproject + uv.lock); the pip-tools requirements files are gone. CI runs "
         "`uv sync --frozen`."),
    ),
    (
        ("fw-dec-reminder-48h", "decision", None, "reminders",
         "Appointment reminders go out once, 48 hours before the appointment."),
        ("fw-dec-reminder-24h-2h", "decision", "Two appointment reminders: day before and same day", "reminders",
         "Appointment reminders now go 24 h before and again 2 h before; the single 48 h reminder had a 9% "
         "no-show rate vs 5% in the pilot."),
    ),
    (
        ("fw-dec-calendar-rbc", "decision", None, "scheduling frontend",
         "Build the appointment calendar on react-big-calendar; we own the resource (vet/room) columns."),
        ("fw-dec-calendar-fullcalendar", "decision", None, "scheduling frontend",
         "Replaced react-big-calendar with FullCalendar premium (resource timeline, drag between rooms): the "
         "in-house resource columns cost more than the licence."),
    ),
    (
        ("fw-dec-session-8h", "decision", None, "auth",
         "Staff sessions expire after 8 hours absolute, regardless of activity."),
        ("fw-dec-session-idle-12h", "decision", None, "auth",
         "Staff sessions: 12 h idle timeout instead of the 8 h absolute expiry, because night-shift vets were "
         "logged out mid-surgery notes. Re-auth with TOTP for controlled-drug dispenses."),
    ),
]

_FW_CHECKPOINTS: list[_Checkpoint] = [
    (
        "fw-cp-waitlist",
        "Started the appointment waitlist (FW-702): WaitlistEntry model, admin and API done; offer flow stubbed.",
        ["Waitlist offers go to one client at a time with a 30-minute hold, then the next in line."],
        ["Offer SMS wording needs sign-off from the clinic ops lead (Priya)."],
        ["Reusing the reminder pipeline for waitlist offers: its 10-minute beat interval is too slow for a "
         "30-minute hold."],
        ["Write offer_next_waitlist_entry, triggered by the appointment-cancelled signal.",
         "Add the waitlist drawer to the calendar day view."],
    ),
    (
        "fw-cp-antech",
        "Antech lab integration pilot: results import for Riverside works; Holloway Road fails auth.",
        ["Antech results reuse the IDEXX LabResult tables with source='antech' rather than new tables."],
        ["Holloway Road gets 401 from Antech: their account number has a leading zero we strip. Blocked on "
         "Antech support ticket 88213."],
        [],
        ["Once 88213 is answered, re-run backfill for Holloway Road since 1 June."],
    ),
    (
        "fw-cp-terminal",
        "Stripe Terminal refunds: partial refunds at the front desk now work end to end.",
        ["Refunds over £500 need a second staff member to approve in the UI."],
        ["Reconciliation report doesn't show refunds issued on a different day than the charge."],
        ["Tried refunding through the reader (interac-style in-person refund): UK readers don't support it, "
         "so refunds go through the API to the original card."],
        ["Fix the reconciliation query to key on refund.created, then ship behind the terminal_refunds flag."],
    ),
    (
        "fw-cp-export",
        "Clinic data export (FW-715): CSV part done; SOAP PDFs are the slow part.",
        [],
        ["PDF rendering for a 40k-patient clinic is estimated at 11 h on the reports queue; needs a plan."],
        ["Rendering all SOAP PDFs inside one Celery task: killed by the 1 h hard time limit."],
        ["Fan out one task per 500 patients and merge with a chord."],
    ),
    (
        "fw-cp-sso",
        "SAML spike for Vetcare Partners (FW-733): login works against a test Azure AD tenant.",
        ["Use python3-saml directly; django-saml2-auth hides the attribute mapping we need for clinic roles."],
        ["Waiting on Vetcare IT for their federation metadata XML and the group claim names."],
        [],
        ["Map the 'FW-Role' claim to staff roles and add just-in-time provisioning."],
    ),
    (
        "fw-cp-opt-out",
        "SMS opt-out sync: Twilio STOP replies now set sms_opt_out through the inbound webhook.",
        ["Opted-out clients automatically fall back to email reminders instead of getting none."],
        ["STOPs sent before the webhook existed aren't in our data; need a one-off import."],
        ["Pulling historic opt-outs through Twilio's Advanced Opt-Out API: not enabled on our messaging "
         "service plan."],
        ["Import the opt-out CSV export from the Twilio console and reconcile by phone number."],
    ),
]

_FW_QUERIES: list[_Query] = [
    # paraphrase
    ("stop text messages from going out to pet owners late at night", "paraphrase",
     ["fw-con-quiet-hours"], []),
    ("how do we keep two appointments from landing on the same operating theatre at once", "paraphrase",
     ["fw-con-double-booking"], []),
    ("how do animal owners get into the owner-facing site if they have no password", "paraphrase",
     ["fw-con-client-magic-links"], []),
    ("can a vet edit a clinical record after it has been finalised", "paraphrase",
     ["fw-con-soap-append-only"], []),
    ("where are uploaded radiographs and signed consent documents kept", "paraphrase",
     ["fw-fact-attachments"], []),
    ("what happens to the animal medical records if a practice cancels and wants their data", "paraphrase",
     ["fw-task-clinic-export", "fw-cp-export"], []),
    ("how many database connections can the vet app open", "paraphrase", ["fw-fact-pgbouncer"], []),
    ("which background worker pool handles heavy PDF generation", "paraphrase",
     ["fw-fact-celery-queues", "fw-inc-report-oom"], []),
    # entity
    ("FW-502", "entity", ["fw-inc-sms-dup"], []),
    ("fw_csrftoken cookie", "entity", ["fw-fact-csrf-cookie"], []),
    ("import_pms --format rxworks", "entity", ["fw-proc-new-clinic"], []),
    ("fernwood-attachments-prod bucket", "entity", ["fw-fact-attachments"], []),
    ("stripe_account header Connect Standard", "entity", ["fw-con-stripe-connect"], []),
    ("Antech ticket 88213", "entity", ["fw-cp-antech.o1", "fw-cp-antech"], []),
    ("free_slots(clinic, date", "entity", ["fw-arch-availability"], []),
    ("VITE_FULLCALENDAR_KEY", "entity", ["fw-arch-spa-routing"], []),
    # decision
    ("what did we decide about using Elasticsearch for finding patients", "decision",
     ["fw-dec-no-elasticsearch"], []),
    ("about to add a frontend dependency to the clinic web app — npm or something else?", "decision",
     ["fw-dec-pnpm"], []),
    ("should new Fernwood tests use fixtures or factories", "decision", ["fw-pref-tests"], []),
    ("who gets a waitlist offer when an appointment is cancelled and how long do they have", "decision",
     ["fw-cp-waitlist.d1"], []),
    ("which SAML library did we pick for the Vetcare Partners SSO", "decision", ["fw-cp-sso.d1"], []),
    # superseded
    ("which provider sends Fernwood's transactional email", "superseded", ["fw-dec-email-postmark"],
     ["fw-dec-email-sendgrid"]),
    ("where is the vet practice app hosted", "superseded",
     ["fw-dec-hosting-fly", "fw-arch-stack"], ["fw-dec-hosting-heroku"]),
    ("how do I add a Python package to the Fernwood backend", "superseded",
     ["fw-dec-uv"], ["fw-dec-pip-tools"]),
    ("when are appointment reminder messages sent before a visit", "superseded", ["fw-dec-reminder-24h-2h"],
     ["fw-dec-reminder-48h"]),
    ("how long before staff get logged out of Fernwood", "superseded", ["fw-dec-session-idle-12h"],
     ["fw-dec-session-8h"]),
    # failed
    ("did anyone try storing the API token in browser storage for the clinic SPA", "failed",
     ["fw-fail-localstorage-token"], []),
    ("has someone attempted viewing CT scans directly in the browser", "failed",
     ["fw-fail-dicom-browser"], []),
    ("could we just schedule each reminder as a delayed celery job days in advance", "failed",
     ["fw-fail-celery-eta"], []),
    ("can the card reader itself issue refunds in the UK", "failed", ["fw-cp-terminal.f1"], []),
    ("what went wrong when we generated every SOAP PDF in a single job", "failed", ["fw-cp-export.f1"], []),
    # task
    ("what's left before the waitlist feature can ship", "task", ["fw-cp-waitlist", "fw-task-waitlist"], []),
    ("why is the Antech integration stuck for one clinic", "task", ["fw-cp-antech.o1", "fw-cp-antech"], []),
    ("what's the next step on Vetcare Partners single sign-on", "task", ["fw-cp-sso", "fw-cp-sso.o1"], []),
    ("is the Django 5 upgrade done or blocked", "task", ["fw-status-django-upgrade"], []),
    ("did we look at texting one-time codes to staff for two-factor", "failed", ["fw-fail-sms-2fa"], []),
    ("has anyone tried numbering invoices afterwards in a background job", "failed",
     ["fw-fail-invoice-async"],
     []),
    ("is there an API to get the old STOP replies out of Twilio — did we try it", "failed",
     ["fw-cp-opt-out.f1"], []),
    ("where are we on sending insurance claims electronically", "task", ["fw-task-vetenvoy"], []),
    ("anything left over from the text-message unsubscribe work", "task",
     ["fw-cp-opt-out", "fw-cp-opt-out.o1"],
     []),
    ("what happens to reminders for someone who unsubscribed from texts", "decision", ["fw-cp-opt-out.d1",
     "fw-con-sms-opt-out"], []),
]


# ==================================================================================== Quillstack (qs)
_QS: list[_Raw] = [
    ("qs-arch-pipeline", "architecture", "Quillstack build pipeline", "architecture build",
     "`quill build` runs: load quill.toml → discover pages → parse Markdown (pulldown-cmark) → run plugin "
     "hooks → render templates (minijinja) → write site/ and the search index. Each stage is a crate under "
     "crates/: quill-core, quill-md, quill-render, quill-plugin, quill-cli."),
    ("qs-con-msrv", "constraint", None, "rust ci",
     "MSRV is Rust 1.74, pinned in rust-toolchain.toml and checked by the msrv CI job. Distro packagers "
     "(Debian, Fedora) depend on it; bump only in a minor release with a changelog line."),
    ("qs-fact-config", "fact", None, "config",
     "Site config is quill.toml: [site] title/base_url, [nav], [theme], [plugins.<name>]. Unknown keys are an "
     "error, not a warning, since 0.9 (serde deny_unknown_fields)."),
    ("qs-arch-cache", "architecture", "Incremental build cache", "cache build",
     "Incremental builds keep .quill-cache/ with one entry per page keyed by the blake3 hash of source + "
     "front matter + the template files it used. A page is re-rendered only if its key changed or a page it "
     "links to changed title."),
    ("qs-inc-stale-nav", "incident", None, "cache",
     "QS-212: renaming a page didn't update the sidebar of other pages in incremental mode — the nav wasn't "
     "part of the cache key. Nav tree hash is now mixed into every page key."),
    ("qs-inc-cache-windows", "incident", "Cache misses on every Windows build", "cache windows",
     "QS-247: on Windows every incremental build re-rendered everything. Cache keys used the raw path with "
     "backslashes while lookups normalised to '/'. Keys now use the site-relative path with forward slashes."),
    ("qs-fact-cache-format", "fact", None, "cache",
     "Cache index is a single bincode file .quill-cache/index.bin with a format version byte; a version "
     "mismatch wipes the cache instead of failing. Current CACHE_FORMAT_VERSION is 4."),
    ("qs-con-cache-deterministic", "constraint", None, "cache build",
     "Rendering must be deterministic: no HashMap iteration order in output, no timestamps in HTML except "
     "the explicit `last_updated` from git. Reproducible-build CI diffs two builds byte for byte."),
    ("qs-arch-plugins", "architecture", "WASM plugin system", "plugins",
     "Plugins are WebAssembly components run with wasmtime; the interface is WIT in "
     "crates/quill-plugin/wit/quill.wit (hooks: on-page-parsed, on-render, on-build-finished). Plugins get "
     "no filesystem or network access unless declared in quill.toml."),
    ("qs-con-plugin-sandbox", "constraint", None, "plugins security",
     "Never give a plugin WASI preopened directories outside the site root, and never the network by "
     "default. Capabilities are opt-in per plugin in [plugins.<name>].allow."),
    ("qs-fact-plugin-fuel", "fact", None, "plugins",
     "Each plugin call runs with a wasmtime fuel limit of 10^9 units and a 64 MiB memory cap; running out "
     "of fuel fails that page with a clear error naming the plugin."),
    ("qs-inc-plugin-slow", "incident", None, "plugins performance",
     "QS-265: the mermaid plugin made builds 8x slower because a new wasmtime Store was created per page. "
     "Stores are now pooled per plugin and reset between calls."),
    ("qs-ref-wit", "reference", None, "plugins",
     "Plugin authors' guide: docs/plugins/authoring.md; example plugins in examples/plugins/ (admonitions in "
     "Rust, reading-time in TinyGo)."),
    ("qs-arch-devserver", "architecture", "quill serve dev server", "devserver",
     "`quill serve` is an axum server on 127.0.0.1:4000 with a notify-based watcher; on change it rebuilds "
     "incrementally and pushes a reload over a websocket at /__quill/ws. The injected script is only added "
     "in serve mode."),
    ("qs-inc-watch-loop", "incident", None, "devserver",
     "QS-230: `quill serve` rebuilt in an endless loop on macOS because it watched site/ as well as the "
     "sources. The output dir and .quill-cache/ are now excluded from the watcher."),
    ("qs-fact-highlighting", "fact", None, "rendering",
     "Code highlighting uses tree-sitter grammars compiled into the binary (22 languages); unknown languages "
     "render as plain <pre> with a build warning."),
    ("qs-fact-search-index", "fact", "Search index format", "search",
     "The client-side search index is sharded JSON under site/_search/ (one shard per 200 pages) with a "
     "tiny TypeScript client. No server needed."),
    ("qs-proc-release", "procedure", "Cutting a Quillstack release", "release",
     "Bump version in Cargo.toml workspace, update CHANGELOG.md, tag vX.Y.Z. cargo-dist builds binaries for "
     "linux (gnu+musl), macOS (x86_64+arm64) and Windows, publishes the GitHub release and the Homebrew tap."),
    ("qs-fact-crates-publish", "fact", None, "release",
     "Only quill-cli and quill-plugin-sdk are published to crates.io; the other crates have publish = false."),
    ("qs-pref-errors", "preference", None, "rust style",
     "Maintainer prefers thiserror enums in library crates and anyhow only in quill-cli's main. Error "
     "messages say what to do: 'page foo.md links to missing bar.md (line 12)'."),
    ("qs-pref-no-unsafe", "preference", None, "rust style",
     "No `unsafe` outside crates/quill-plugin (wasmtime glue). #![forbid(unsafe_code)] in the rest."),
    ("qs-fact-link-checker", "fact", None, "links",
     "Internal links are checked at build time (broken link = error with --strict, warning otherwise). "
     "External links are only checked by `quill check --external`, with a 24 h on-disk cache."),
    ("qs-inc-link-anchors", "incident", None, "links",
     "QS-251: links to headings with emoji were reported broken because our slugifier dropped the emoji and "
     "GitHub's keeps it. Slug rules now match GitHub's (github-slugger port)."),
    ("qs-fact-i18n", "fact", None, "i18n",
     "Translations: docs/<lang>/ mirrors the default tree; missing pages fall back to the default language "
     "with a banner. Language switcher lists only languages that have that page."),
    ("qs-status-i18n", "status", None, "i18n",
     "i18n ships in 0.12 as experimental behind [i18n] enabled = true. RTL languages render but the default "
     "theme's sidebar is mirrored wrong."),
    ("qs-fact-themes", "fact", None, "themes",
     "Themes are directories with templates/ and static/; the default theme 'inkwell' is embedded with "
     "include_dir!. Users override single templates by placing a file at the same path in their site."),
    ("qs-con-theme-compat", "constraint", None, "themes",
     "Template context fields are a public API: renaming `page.toc` or `site.nav` breaks third-party themes. "
     "Add new fields, deprecate old ones for one minor release."),
    ("qs-fact-benchmarks", "fact", None, "performance",
     "Bench site is the Rust Book (≈ 110 pages) plus the synthetic 10k-page site in bench/gen.rs. 0.11: cold "
     "build 1.9 s for 10k pages on the CI runner, warm incremental 140 ms."),
    ("qs-proc-bench", "procedure", None, "performance",
     "Run `cargo bench -p quill-core` then `just bench-site`; compare against bench/baseline.json. A >10% "
     "regression on cold build blocks the PR."),
    ("qs-fact-ci", "fact", None, "ci",
     "CI on GitHub Actions: fmt, clippy -D warnings, tests on linux/mac/windows, msrv, reproducible-build, "
     "and bench on linux only. Windows job is the slowest (~14 min)."),
    ("qs-inc-clippy-break", "incident", None, "ci rust",
     "QS-270: CI broke overnight when stable clippy added a lint (needless_return on a macro). We pin "
     "clippy to the toolchain in rust-toolchain.toml for the lint job now."),
    ("qs-fact-frontmatter", "fact", None, "markdown",
     "Front matter is TOML between +++ or YAML between ---; both map to the same PageMeta struct. Fields: "
     "title, weight, draft, aliases, template, description."),
    ("qs-con-no-yaml-anchors", "constraint", None, "markdown",
     "YAML front matter must not use anchors/aliases — serde_yaml 0.9 handles them but we can't round-trip "
     "them in `quill fmt`. `quill fmt` refuses such files with an explanation."),
    ("qs-fact-md-extensions", "fact", None, "markdown",
     "Enabled pulldown-cmark extensions: tables, footnotes, strikethrough, task lists, heading attributes. "
     "Math is a plugin (katex-wasm), not built in."),
    ("qs-inc-footnote-ids", "incident", None, "markdown",
     "QS-258: two pages included in one print page had clashing footnote ids (#fn1). Footnote ids are now "
     "prefixed with the page slug."),
    ("qs-fact-print-page", "fact", None, "rendering",
     "The print page (/print.html) concatenates every page in nav order; it's skipped when "
     "[output] print = false. Large sites (10k pages) produce a 90 MB file, hence the opt-out."),
    ("qs-task-versioned-docs", "task", "Versioned docs", "versioning",
     "QS-280: support several doc versions (v1/, v2/, latest/) built from git tags in one run, with a version "
     "switcher. Design doc in docs/design/versioning.md, no code yet."),
    ("qs-task-og-images", "task", None, "rendering",
     "QS-284: generate Open Graph preview images per page (title on a theme background) without a headless "
     "browser. resvg looks like the candidate."),
    ("qs-status-0-12", "status", None, "release",
     "0.12 release: i18n (experimental), external link cache, plugin Store pooling merged. Remaining: "
     "Windows long-path fix (QS-288) and changelog. Target is end of the month."),
    ("qs-inc-long-paths", "incident", None, "windows",
     "QS-288: builds fail on Windows with 'os error 206' for paths over 260 chars in deep doc trees. Needs "
     "\\\\?\\ prefixed paths via dunce or the longPathAware manifest."),
    ("qs-fact-dunce", "fact", None, "windows",
     "We use dunce::canonicalize everywhere instead of std::fs::canonicalize so Windows paths don't get the "
     "\\\\?\\ verbatim prefix in output URLs."),
    ("qs-pref-changelog", "preference", None, "release workflow",
     "Every user-visible PR adds a line to CHANGELOG.md under Unreleased (Keep a Changelog headings). "
     "Internal refactors don't."),
    ("qs-fact-telemetry", "fact", None, "privacy",
     "Quillstack has no telemetry and must not get any; several users picked it for that. The update check "
     "is opt-in (`quill self-update --check`)."),
    ("qs-fact-sitemap", "fact", None, "seo",
     "sitemap.xml and robots.txt are generated when base_url is set; pages with draft = true or "
     "noindex = true are left out."),
    ("qs-arch-render-parallel", "architecture", None, "performance build",
     "Rendering is parallel with rayon over pages; the minijinja Environment is shared read-only. Plugin calls "
     "are the only serialised part (one Store per plugin per worker)."),
    ("qs-inc-rayon-deadlock", "incident", None, "performance plugins",
     "QS-268: builds hung with >8 cores when a plugin called back into the host's render function inside a "
     "rayon task (nested pool wait on a mutex). Callbacks now run outside the Store lock."),
    ("qs-fact-assets", "fact", None, "assets",
     "Static assets get content-hashed file names (app.3f9a1c.css) and the templates' `asset()` function "
     "returns the hashed URL. Images are copied as-is; no resizing."),
    ("qs-ref-docs-site", "reference", None, "docs",
     "Quillstack's own docs are built with Quillstack from docs/ and deployed to quillstack.dev by the pages "
     "workflow on every tag."),
    ("qs-fact-config-env", "fact", None, "config",
     "Any quill.toml value can be overridden by env var QUILL__SECTION__KEY (double underscore), e.g. "
     "QUILL__SITE__BASE_URL for preview deploys."),
    ("qs-con-semver", "constraint", None, "release",
     "Pre-1.0 but we treat minor versions as breaking: CLI flags and quill.toml keys are removed only in a "
     "0.x minor with a deprecation warning one release earlier."),
    ("qs-fact-test-layout", "fact", None, "testing",
     "Snapshot tests with insta for rendered HTML under tests/snapshots/; fixture sites in tests/sites/. "
     "Review snapshot changes with `cargo insta review`, never by accepting all."),
    ("qs-pref-small-prs", "preference", None, "workflow",
     "Maintainer (Ilse) wants PRs under ~400 lines; split refactors from behaviour changes."),
    ("qs-fact-windows-ci-cache", "fact", None, "ci windows",
     "Windows CI uses Swatinem/rust-cache keyed on Cargo.lock; sccache was removed because it made the "
     "Windows job slower."),
    ("qs-fail-sccache", "failed_approach", None, "ci windows",
     "Tried sccache with the GHA cache backend on the Windows job: 14 → 19 min because of the 2 GB cache "
     "upload. Removed."),
    ("qs-inc-musl-alloc", "incident", None, "release performance",
     "QS-241: the musl Linux binary built 4x slower than gnu because of musl's malloc. Linked mimalloc as "
     "the global allocator for musl targets."),
    ("qs-fact-toc", "fact", None, "rendering",
     "Table of contents comes from h2-h4 only; headings inside admonitions and tabs are skipped. "
     "`toc = false` in front matter disables it."),
    ("qs-task-search-ranking", "task", None, "search",
     "QS-291: search results rank titles below body matches; add field boosts (title 3x, headings 2x) in "
     "the TS client and re-shard tests."),
    ("qs-fact-redirects", "fact", None, "links",
     "Front matter `aliases` generate redirect stubs (meta refresh + canonical link) at the old URLs; "
     "`quill build` fails if an alias collides with a real page."),
    ("qs-proc-add-language", "procedure", None, "rendering",
     "To add a highlighting language: add the tree-sitter grammar crate to quill-render, register it in "
     "languages.rs with its highlights.scm, and add a fixture page. Binary size grows ~300 KB per grammar."),
    ("qs-con-binary-size", "constraint", None, "release",
     "Release binary must stay under 25 MB (Homebrew and scoop users complained at 31 MB in 0.8). Check with "
     "`just size` before adding grammars or dependencies."),
    ("qs-fact-watch-debounce", "fact", None, "devserver",
     "The watcher debounces events for 150 ms; editors that write via rename (vim, JetBrains safe write) "
     "produce several events per save."),
    ("qs-arch-link-graph", "architecture", None, "links cache",
     "A link graph (page → linked pages) is built during parse and stored in the cache; it decides which "
     "pages to re-render when a title changes and powers `quill check --orphans`."),
    ("qs-fact-cache-location", "fact", None, "cache",
     "The cache dir defaults to .quill-cache/ next to quill.toml; override with --cache-dir or "
     "[build] cache_dir. CI users should cache it keyed on quill.toml + the quill version."),
    ("qs-fail-cache-sqlite", "failed_approach", "SQLite for the build cache", "cache",
     "Tried storing the incremental cache in SQLite (rusqlite): writes from rayon workers serialised on the "
     "connection and warm builds got slower (140 → 310 ms). Back to one bincode index."),
    ("qs-inc-cache-corrupt", "incident", None, "cache",
     "QS-236: Ctrl-C during a build left a truncated index.bin and the next build panicked. The index is now "
     "written to a temp file and renamed atomically."),
    ("qs-pref-cache-clean", "preference", None, "cache cli",
     "When a user reports a weird incremental bug, ask for `quill build --no-cache` output first; `quill "
     "clean` exists but hides the evidence."),
    ("qs-fact-plugin-hooks-order", "fact", None, "plugins",
     "Plugins run in the order listed in quill.toml; on-page-parsed output of one plugin is the input of the "
     "next. There's no priority field on purpose."),
    ("qs-fail-plugin-js", "failed_approach", None, "plugins",
     "Tried letting plugins be plain JavaScript run in an embedded QuickJS: no capability sandbox of its own "
     "and a second runtime to ship. Dropped for WASM components only (JS via jco)."),
    ("qs-inc-plugin-abi", "incident", None, "plugins",
     "QS-261: plugins compiled against WIT 0.2 failed to load in 0.11 with 'unknown import'. We now keep the "
     "previous WIT world and adapt old plugins for one minor version."),
    ("qs-proc-plugin-publish", "procedure", "Publishing a plugin", "plugins",
     "Build with `cargo component build --release`, then `quill plugin pack` writes a .qplugin (wasm + "
     "manifest). Registry submissions are PRs to quillstack/plugins-index."),
    ("qs-fact-serve-port", "fact", None, "devserver",
     "`quill serve` falls back to the next free port (4001, 4002...) if 4000 is taken and prints the URL; "
     "--bind 0.0.0.0 is needed to test from a phone."),
    ("qs-fail-serve-sse", "failed_approach", None, "devserver",
     "Tried server-sent events instead of the websocket for live reload: Safari dropped the SSE stream after "
     "sleep and never reconnected. Kept the websocket with a reconnect loop."),
    ("qs-fact-drafts", "fact", None, "markdown",
     "Pages with draft = true render in `quill serve` with a DRAFT banner but are skipped by `quill build` "
     "unless --drafts is passed."),
    ("qs-fact-search-stopwords", "fact", None, "search",
     "The search tokenizer lowercases, strips accents and drops English stop words; other languages get no "
     "stop words yet. Code blocks are not indexed."),
    ("qs-fail-search-wasm", "failed_approach", None, "search",
     "Tried compiling tantivy to WASM for in-browser search: 2.4 MB gzipped download before the first query. "
     "Our sharded JSON client is 9 KB."),
    ("qs-inc-search-cjk", "incident", None, "search i18n",
     "QS-275: Japanese pages were unsearchable — the tokenizer split on whitespace only. CJK text is now "
     "indexed as character bigrams."),
    ("qs-ref-contributing", "reference", None, "workflow",
     "CONTRIBUTING.md explains the crate layout, `just` recipes (just test, just bench-site, just size) and "
     "the snapshot review flow."),
    ("qs-fact-just", "fact", None, "tooling",
     "Dev tasks are `just` recipes in the justfile; no Makefile. `just ci` runs what CI runs except the "
     "Windows and reproducible-build jobs."),
    ("qs-status-plugins-index", "status", None, "plugins",
     "Plugin index has 23 plugins; 4 still target WIT 0.2 and will stop loading in 0.13 unless rebuilt. "
     "Authors were emailed on the 2nd."),
    ("qs-task-plugin-timeout", "task", None, "plugins",
     "QS-293: add a wall-clock timeout per plugin call in addition to fuel, using wasmtime epoch "
     "interruption; fuel alone doesn't catch host calls that block."),
    ("qs-con-no-network-build", "constraint", None, "build",
     "`quill build` must work fully offline; only `quill check --external` and `quill self-update` may touch "
     "the network. Fonts, grammars and themes are embedded."),
    ("qs-fact-hot-templates", "fact", None, "devserver templates",
     "Template edits in serve mode re-render only pages that used that template, tracked in the cache's "
     "template dependency list."),
]

_QS_PAIRS: list[tuple[_Raw, _Raw]] = [
    (
        ("qs-dec-templates-tera", "decision", None, "templates",
         "Use Tera for templates: Jinja-like syntax users know, mature."),
        ("qs-dec-templates-minijinja", "decision", "Templates: minijinja instead of Tera", "templates",
         "Switched from Tera to minijinja: 3x faster render on the 10k-page bench, better error locations, "
         "and closer Jinja2 compatibility. Theme authors got a migration note in 0.7."),
    ),
    (
        ("qs-dec-highlight-syntect", "decision", None, "rendering",
         "Highlight code with syntect using Sublime syntaxes bundled in the binary."),
        ("qs-dec-highlight-treesitter", "decision", None, "rendering",
         "Highlighting moved from syntect to tree-sitter: syntect's regex engine was 40% of cold build time and "
         "its TypeScript/TSX grammars were stale."),
    ),
    (
        ("qs-dec-search-lunr", "decision", None, "search",
         "Client-side search with a prebuilt lunr.js index emitted as one search_index.json."),
        ("qs-dec-search-sharded", "decision", "Search: own sharded index, not lunr", "search",
         "Replaced lunr with our own sharded JSON index + small TS client: lunr's single index was 28 MB on "
         "10k pages and froze mobile browsers while loading."),
    ),
    (
        ("qs-dec-cache-mtime", "decision", None, "cache",
         "Incremental builds decide staleness by file mtime compared with the output file's mtime."),
        ("qs-dec-cache-hash", "decision", None, "cache",
         "Incremental cache keys are content hashes (blake3), not mtimes: git checkout and CI restores reset "
         "mtimes, so mtime-based staleness rebuilt or missed pages at random."),
    ),
    (
        ("qs-dec-plugins-lua", "decision", None, "plugins",
         "Plugins are Lua scripts run with mlua, loaded from plugins/*.lua."),
        ("qs-dec-plugins-wasm", "decision", "Plugins run as WASM components", "plugins",
         "Plugins are WASM components (wasmtime) instead of Lua: authors can use Rust, Go or JS, and the "
         "sandbox gives real capability control. Lua plugins stopped loading in 0.10."),
    ),
]

_QS_CHECKPOINTS: list[_Checkpoint] = [
    (
        "qs-cp-long-paths",
        "Windows long paths (QS-288): reproduced on the windows-2022 runner with a 270-char doc tree.",
        ["Embed a longPathAware application manifest via build.rs instead of prefixing every path."],
        ["The manifest only helps when the LongPathsEnabled registry key is set; need a readable error "
         "when it isn't."],
        ["Prefixing paths with \\\\?\\ everywhere: broke relative path joins and leaked into URLs."],
        ["Detect os error 206 and print a hint about LongPathsEnabled; add the 270-char fixture to CI."],
    ),
    (
        "qs-cp-versioning",
        "Versioned docs (QS-280) design spike: built two tags side by side with git worktrees.",
        ["Each version is built from a git worktree of its tag into site/<version>/ and shares one cache."],
        ["Search across versions: one index per version or one with a version field? Undecided."],
        ["Building old tags with the current theme: templates from v1 reference removed context fields."],
        ["Write the version-switcher partial and a `[versions]` section in quill.toml."],
    ),
    (
        "qs-cp-og-images",
        "OG images (QS-284): resvg renders an SVG template to PNG in ~12 ms per page.",
        ["Fonts are bundled (Inter, 2 weights) so images don't depend on system fonts."],
        ["Binary size goes from 22.5 to 24.8 MB with the fonts; close to the 25 MB limit."],
        ["Tried the headless-chrome crate for screenshots: needs Chrome installed, ruled out."],
        ["Make OG images opt-in under [output] og_images and subset the fonts to Latin."],
    ),
    (
        "qs-cp-search-ranking",
        "Search ranking (QS-291): title and heading boosts implemented in the TS client.",
        [],
        ["Shard size grows ~15% with the extra heading field; check the 10k bench before merging."],
        ["Boosting at index time by repeating title tokens: inflated shard size by 40%."],
        ["Run the 10k-page bench and add ranking fixtures with expected top-3 results."],
    ),
    (
        "qs-cp-plugin-timeout",
        "Plugin wall-clock timeout (QS-293): epoch interruption wired into the Store pool.",
        ["Default timeout is 5 s per plugin call, configurable per plugin as timeout_ms."],
        ["The epoch ticker thread keeps `quill serve` from exiting cleanly on Ctrl-C on Windows."],
        ["A tokio::time::timeout around the call: it can't interrupt synchronous wasm execution."],
        ["Stop the ticker on shutdown and add a fixture plugin that loops forever."],
    ),
]

_QS_QUERIES: list[_Query] = [
    # paraphrase
    ("why did the docs generator rebuild every page on each Windows build", "paraphrase",
     ["qs-inc-cache-windows"], []),
    ("can a site extension read files or call the internet", "paraphrase",
     ["qs-con-plugin-sandbox", "qs-arch-plugins"], []),
    ("oldest compiler version the doc generator must still build with", "paraphrase", ["qs-con-msrv"], []),
    ("does the static site tool phone home with usage stats", "paraphrase", ["qs-fact-telemetry"], []),
    ("how big can the shipped executable get", "paraphrase",
     ["qs-con-binary-size", "qs-cp-og-images.o1"], []),
    ("old URLs after moving a page should still work — how", "paraphrase", ["qs-fact-redirects"], []),
    ("sidebar stayed stale after renaming a doc page in watch builds", "paraphrase",
     ["qs-inc-stale-nav"], []),
    ("can I rename a variable that themes use in their templates", "paraphrase", ["qs-con-theme-compat"], []),
    # entity
    ("QS-247", "entity", ["qs-inc-cache-windows"], []),
    ("CACHE_FORMAT_VERSION", "entity", ["qs-fact-cache-format"], []),
    ("/__quill/ws", "entity", ["qs-arch-devserver"], []),
    ("QUILL__SITE__BASE_URL", "entity", ["qs-fact-config-env"], []),
    ("os error 206", "entity", ["qs-inc-long-paths", "qs-cp-long-paths"], []),
    ("rust 1.74 rust-toolchain.toml", "entity", ["qs-con-msrv"], []),
    ("crates/quill-plugin/wit/quill.wit hooks", "entity", ["qs-arch-plugins"], []),
    ("mimalloc musl", "entity", ["qs-inc-musl-alloc"], []),
    # decision
    ("which template engine does quillstack render with and why", "decision",
     ["qs-dec-templates-minijinja"], []),
    ("error handling crates: thiserror or anyhow where", "decision", ["qs-pref-errors"], []),
    ("how will each docs version get built from its tag", "decision", ["qs-cp-versioning.d1"], []),
    ("are fonts for the social preview images taken from the system", "decision", ["qs-cp-og-images.d1"], []),
    ("how do we fix the Windows path length problem, registry or prefix", "decision",
     ["qs-cp-long-paths.d1"], []),
    # superseded
    ("what does quillstack use for syntax highlighting of code blocks", "superseded",
     ["qs-dec-highlight-treesitter", "qs-fact-highlighting"], ["qs-dec-highlight-syntect"]),
    ("how does the generated site's search work in the browser", "superseded",
     ["qs-dec-search-sharded", "qs-fact-search-index"],
     ["qs-dec-search-lunr"]),
    ("how does an incremental build know a page is out of date", "superseded",
     ["qs-dec-cache-hash", "qs-arch-cache"],
     ["qs-dec-cache-mtime"]),
    ("what language do I write a quillstack plugin in", "superseded",
     ["qs-dec-plugins-wasm", "qs-arch-plugins"],
     ["qs-dec-plugins-lua"]),
    ("are templates Tera or Jinja style", "superseded", ["qs-dec-templates-minijinja", "qs-arch-pipeline"],
     ["qs-dec-templates-tera"]),
    # failed
    ("did we try the verbatim path prefix to get around Windows MAX_PATH", "failed",
     ["qs-cp-long-paths.f1"], []),
    ("has anyone used a headless browser to screenshot preview cards", "failed", ["qs-cp-og-images.f1"], []),
    ("would repeating title words in the index make titles rank higher — tried?", "failed",
     ["qs-cp-search-ranking.f1"], []),
    ("does rendering old release tags with today's theme work", "failed", ["qs-cp-versioning.f1"], []),
    ("did sccache speed up the windows pipeline", "failed",
     ["qs-fail-sccache", "qs-fact-windows-ci-cache"], []),
    # task
    ("what's blocking the 0.12 release", "task",
     ["qs-status-0-12", "qs-inc-long-paths", "qs-cp-long-paths"], []),
    ("what remains open on cross-version search", "task", ["qs-cp-versioning.o1", "qs-cp-versioning"], []),
    ("next step for the search ranking work", "task",
     ["qs-cp-search-ranking", "qs-cp-search-ranking.o1"], []),
    ("anything left to decide before social card images ship", "task",
     ["qs-cp-og-images.o1", "qs-cp-og-images"], []),
    ("was a database tried for the incremental build state", "failed", ["qs-fail-cache-sqlite"], []),
    ("did we consider in-browser full-text engines compiled to wasm for site search", "failed",
     ["qs-fail-search-wasm"], []),
    ("did an async timeout around plugin calls work", "failed", ["qs-cp-plugin-timeout.f1"], []),
    ("how long can a plugin run before being stopped — what did we pick", "decision",
     ["qs-cp-plugin-timeout.d1"], []),
    ("what's still broken with the plugin time limit on Windows", "task",
     ["qs-cp-plugin-timeout.o1", "qs-cp-plugin-timeout"], []),
]


# ========================================================================================= Ember (em)
_EM: list[_Raw] = [
    ("em-arch-hw", "architecture", "Ember hardware and firmware layout", "architecture hardware",
     "Ember thermostat: nRF52840 main MCU running Zephyr 3.5 (app in app/, board files in boards/arm/ember_v3), "
     "SHT40 temp/humidity sensor on I2C0, 2.9\" e-paper on SPI2, 24VAC relay board (W, Y, G, O/B) via a "
     "TCA9534 GPIO expander."),
    ("em-con-relay-interlock", "constraint", "Heat and cool relays must never be on together", "hvac safety",
     "W (heat) and Y (cool) must never be energised at the same time — enforced in hvac/relays.c by "
     "relay_set() AND in hardware by the interlock on rev C boards. Don't bypass relay_set()."),
    ("em-con-compressor-delay", "constraint", None, "hvac safety",
     "Compressor (Y) minimum off time is 5 minutes before it may restart (short-cycle protection). The timer "
     "survives reboots: it is stored in retained RAM."),
    ("em-arch-control-loop", "architecture", "Temperature control loop", "control",
     "Control runs every 30 s in the control thread (priority 5): read SHT40, filter with a 3-sample median, "
     "then hysteresis ±0.5 °C around the setpoint for single-stage systems; two-stage systems use a PI loop "
     "to decide stage 2."),
    ("em-fact-sensor-offset", "fact", None, "sensors",
     "The SHT40 reads 0.8-1.2 °C high because of self-heating from the e-paper driver and the nRF; we "
     "subtract a per-board offset from factory calibration stored in UICR."),
    ("em-inc-sensor-stuck", "incident", None, "sensors i2c",
     "EM-144: on some units temperature froze at the last value for hours. The SHT40 NACKed after an ESD "
     "event and the driver returned cached data. Now 3 consecutive NACKs trigger an I2C bus recovery (9 "
     "clock pulses) and a sensor soft reset."),
    ("em-arch-ble", "architecture", "BLE provisioning", "ble provisioning",
     "Setup uses BLE: the phone app connects to the 'Ember-XXXX' advertisement, pairs with LE Secure "
     "Connections (passkey shown on the e-paper), then writes Wi-Fi/Thread credentials through the "
     "provisioning GATT service (UUID base 7e3a0000-...)."),
    ("em-con-ble-pairing", "constraint", None, "ble security",
     "Never accept Just Works pairing: provisioning characteristics require an authenticated, encrypted link "
     "(BT_SECURITY_L4). The passkey is random per attempt and shown only on the device display."),
    ("em-inc-ble-android", "incident", "Pairing failed on Pixel phones", "ble provisioning",
     "EM-161: Android 14 on Pixels dropped the connection during pairing with status 0x13 because our "
     "connection supervision timeout was 500 ms. Raised to 4 s; pairing success on Pixel went to 99%."),
    ("em-fact-ble-conn", "fact", None, "ble",
     "CONFIG_BT_MAX_CONN=2 (phone + a Matter commissioner); CONFIG_BT_MAX_PAIRED=4. Extra bonds evict the "
     "oldest."),
    ("em-arch-ota", "architecture", "Firmware updates (OTA)", "ota bootloader",
     "MCUboot with swap-using-move and two 448 KB slots in internal flash. Images are signed with ECDSA P-256; "
     "the key id is in the image TLV. The app downloads over HTTPS (Wi-Fi) or via Matter OTA Requestor, writes "
     "slot 1, and reboots to test; it confirms the image after 10 minutes of healthy operation."),
    ("em-con-ota-rollback", "constraint", None, "ota",
     "An OTA image must call boot_write_img_confirmed() only after the control loop, Wi-Fi and the cloud "
     "session have all been healthy for 10 minutes; an unconfirmed image is reverted by MCUboot on next boot."),
    ("em-inc-ota-bricked", "incident", None, "ota",
     "EM-173: 31 units in the beta ring stuck in a reboot loop after 2.3.0: the new image confirmed itself "
     "at boot before the sensor driver init, which then faulted. Confirmation moved to the 10-minute health "
     "check; those units were recovered by power cycling twice."),
    ("em-fact-signing-keys", "fact", "OTA signing keys", "ota security",
     "Production signing key lives in the cloud HSM (GCP KMS key ember-fw-prod-p256); CI signs via "
     "`imgtool sign --key-id` through a KMS wrapper. Dev boards use the insecure key in keys/dev.pem."),
    ("em-proc-ota-rollout", "procedure", "OTA rollout rings", "ota release",
     "Rollout: internal ring (40 units) → beta ring (2%) after 48 h → 10% → 50% → 100%, each step gated on "
     "crash-free rate ≥ 99.5% in Memfault. Pause with `emberctl ota pause <version>`."),
    ("em-fact-memfault", "fact", None, "observability",
     "Crash reports and metrics go to Memfault (project ember-prod). Coredumps are captured to a 32 KB flash "
     "region and uploaded over the cloud connection."),
    ("em-arch-flash-layout", "architecture", None, "flash",
     "Internal 1 MB flash: mcuboot 48 KB | slot0 448 KB | slot1 448 KB | scratch 0 (swap-move) | storage "
     "(NVS) 32 KB | coredump 32 KB. Defined in boards/arm/ember_v3/ember_v3.dts partitions."),
    ("em-fact-nvs", "fact", None, "flash settings",
     "Settings (schedule, setpoints, Wi-Fi creds) are stored with Zephyr settings over NVS in the storage "
     "partition. Wi-Fi password is encrypted with a key derived from the device's unique id."),
    ("em-inc-nvs-wear", "incident", None, "flash settings",
     "EM-150: field units from the first batch had NVS garbage collection running every few minutes because "
     "the schedule was saved on every dial turn. Saves are now debounced by 30 s."),
    ("em-arch-matter", "architecture", "Matter support", "matter thread",
     "Matter over Thread using the nRF Connect SDK's Matter stack (v2.5). We expose Thermostat cluster "
     "(0x0201) with heating/cooling/auto and the Fan Control cluster. Wi-Fi via the ESP32-C3 coprocessor "
     "stays for our cloud."),
    ("em-fact-matter-cert", "fact", None, "matter",
     "Matter certification: VID 0xFFF1 (test) until CSA certification completes; production VID/PID "
     "0x1387/0x0003 are reserved. Attestation certs are provisioned in the factory."),
    ("em-arch-wifi", "architecture", None, "wifi",
     "Wi-Fi is an ESP32-C3 running ESP-AT firmware over UART at 921600 baud; the nRF talks to it with "
     "Zephyr's esp_at driver. The ESP32 firmware is updated by the nRF over UART during OTA."),
    ("em-inc-wifi-uart", "incident", None, "wifi",
     "EM-158: random Wi-Fi disconnects under load traced to UART overruns at 921600 without flow control. "
     "Enabled RTS/CTS (rev B boards already had the lines routed)."),
    ("em-fact-power", "fact", None, "power",
     "Powered from the C wire (24VAC) through the buck converter; boards without a C wire use power stealing "
     "through the W line, limited to 20 mA to avoid furnace chatter."),
    ("em-con-power-stealing", "constraint", None, "power hvac",
     "In power-stealing mode the radio duty cycle must stay under 5% and the e-paper refreshes at most once "
     "a minute, otherwise the supercap drains and the unit browns out."),
    ("em-inc-furnace-chatter", "incident", None, "power hvac",
     "EM-167: a customer's Carrier furnace clicked on and off every few seconds in power-stealing mode: we drew "
     "35 mA during Wi-Fi scans. Scans are now deferred while stealing power."),
    ("em-fact-e-paper", "fact", None, "display",
     "E-paper full refresh takes 2.1 s and flashes; partial refresh 0.3 s. Do a full refresh every 20 partial "
     "updates to clear ghosting."),
    ("em-pref-logging", "preference", None, "code style",
     "Use LOG_MODULE_REGISTER with per-module levels, no printk in committed code. LOG_DBG for anything "
     "per-cycle."),
    ("em-pref-style", "preference", None, "code style",
     "Follow Zephyr coding style (clang-format file in repo root); 8-space tabs. Run `west format` before "
     "committing."),
    ("em-proc-build", "procedure", "Building and flashing Ember", "build",
     "`west build -b ember_v3 app -- -DEXTRA_CONF_FILE=debug.conf` then `west flash --runner jlink`. Release "
     "builds use prj_release.conf and are only made by CI."),
    ("em-fact-twister", "fact", None, "testing ci",
     "Unit tests run with twister on native_sim; the HIL rig (4 boards on a Raspberry Pi with relay "
     "loopback) runs the hw/ tests nightly. Results are posted to #ember-ci."),
    ("em-fact-hil-rig", "fact", None, "testing hardware",
     "The HIL rig simulates the furnace with an Arduino that measures relay timing; relay_timing tests fail "
     "if the compressor restarts within 300 s."),
    ("em-fact-schedule", "fact", None, "schedule",
     "Schedules hold up to 6 periods per day × 7 days; stored as minutes since midnight in local time. The "
     "timezone (POSIX TZ string) comes from the cloud at provisioning."),
    ("em-inc-schedule-dst", "incident", None, "schedule timezone",
     "EM-171: after the autumn DST change units in Arizona were an hour off — the cloud sent "
     "America/Denver's POSIX TZ string for ZIP codes in Arizona. Cloud now maps by IANA zone America/Phoenix."),
    ("em-fact-cloud-protocol", "fact", None, "cloud",
     "Device-to-cloud is MQTT 3.1.1 over TLS 1.2 to mqtt.ember.cloud:8883, client cert per device. Topics: "
     "ember/<device_id>/state (retained), /cmd, /ota."),
    ("em-con-tls-memory", "constraint", None, "cloud memory",
     "mbedTLS heap is capped at 48 KB (CONFIG_MBEDTLS_HEAP_SIZE); the cloud must offer an ECDSA cert chain — "
     "RSA-4096 chains don't fit."),
    ("em-inc-cert-rotation", "incident", None, "cloud",
     "EM-178: after the broker cert rotated to a new intermediate, 6% of units couldn't reconnect because "
     "their bundled CA list lacked ISRG Root X2. Shipped 2.3.2 with both roots; units recovered via Matter."),
    ("em-fact-memory-budget", "fact", None, "memory",
     "RAM budget (256 KB): BLE + Matter 96 KB, mbedTLS 48 KB, e-paper framebuffer 15 KB, stacks 28 KB. Free "
     "heap at idle is ~22 KB; keep it above 12 KB."),
    ("em-task-humidity", "task", "Humidifier control", "hvac",
     "EM-190: drive a humidifier from the HUM terminal with a humidity setpoint; needs a new relay channel on "
     "rev D boards and a Matter attribute mapping."),
    ("em-task-heat-pump-aux", "task", None, "hvac",
     "EM-195: heat pump auxiliary heat lockout by outdoor temperature (from the cloud weather feed). Requires "
     "O/B reversing valve config per installer setting."),
    ("em-status-matter-cert", "status", None, "matter",
     "Matter certification: test event passed 91 of 94 cases; the 3 failures are in Thermostat cluster "
     "setpoint deadband handling. Re-test booked with the lab for the 14th."),
    ("em-status-2-4", "status", None, "release",
     "Firmware 2.4.0 in beta ring (2%) since Monday; crash-free 99.7%. Holding at 2% until the e-paper "
     "ghosting fix lands."),
    ("em-ref-datasheets", "reference", None, "hardware",
     "Datasheets and schematics: Google Drive 'Ember HW/rev C' (schematic ember-main-revC.pdf). Pin map in "
     "docs/hw/pinmap.md is the source of truth for firmware."),
    ("em-fact-factory", "fact", None, "factory",
     "Factory test firmware (factory/ app) checks relays, sensor, display and radio, writes calibration and "
     "the device id to UICR, and locks APPROTECT. Takes 45 s per unit."),
    ("em-con-approtect", "constraint", None, "security factory",
     "APPROTECT must be enabled on every production unit; debug access is only via the authenticated "
     "debug unlock with the per-device key."),
    ("em-fact-installer-config", "fact", None, "hvac installer",
     "Installer settings menu (hold both buttons 5 s): system type (conventional / heat pump), stages, O/B "
     "polarity, fan on with heat, temperature units. Stored in NVS separately from user settings."),
    ("em-inc-ob-polarity", "incident", None, "hvac installer",
     "EM-182: heat pumps blew cold air in heat mode for some installs: the O/B default was O (energise on "
     "cool) but Rheem units expect B. We now ask during setup instead of defaulting."),
    ("em-fact-wdt", "fact", None, "reliability",
     "Hardware watchdog 8 s, fed by the main loop only if the control, network and UI threads all checked "
     "in during the last period."),
    ("em-pref-reviews", "preference", None, "workflow",
     "Firmware PRs need a review from someone who ran it on hardware; 'tested on native_sim only' must be "
     "said in the PR description."),
    ("em-fact-occupancy", "fact", None, "sensors",
     "Occupancy sensing uses the PIR on rev C; away mode kicks in after 2 h without motion in scheduled "
     "'home' periods, if the user enabled auto-away."),
    ("em-task-ghosting", "task", None, "display",
     "EM-197: e-paper ghosting after many partial refreshes in cold rooms (<12 °C). Try a temperature-"
     "dependent full-refresh interval using the panel's LUT for low temperatures."),
    ("em-fact-button-debounce", "fact", None, "input",
     "Buttons debounced in the GPIO callback with a 30 ms k_work_delayable; the rotary encoder uses the "
     "QDEC peripheral, no software debounce."),
    ("em-ref-matter-docs", "reference", None, "matter",
     "Matter cluster spec excerpts and our attribute mapping table: docs/matter/clusters.md. The ZAP file is "
     "app/src/matter/ember.zap; regenerate with `west zap-generate`."),
    ("em-fact-ota-download", "fact", None, "ota",
     "OTA over Wi-Fi downloads in 4 KB chunks with HTTP range requests so an interrupted download resumes; "
     "the image hash is checked before the swap is requested."),
    ("em-fail-ota-delta", "failed_approach", "Delta OTA updates", "ota",
     "Tried delta updates (detools) to cut download size: applying the patch needs the old image readable "
     "while writing slot 1, which swap-using-move can't guarantee. Full images only."),
    ("em-inc-ota-power-loss", "incident", None, "ota",
     "EM-176: a unit lost power mid-swap and booted fine on the old image, as designed, but the app kept "
     "reporting the new version. Version reporting now reads the running slot's header."),
    ("em-pref-ota-notes", "preference", None, "ota release",
     "Every OTA release note lists the MCUboot image version, the ESP32-C3 AT firmware version and the "
     "Matter software version number separately."),
    ("em-fact-ble-adv", "fact", None, "ble",
     "Advertising: 'Ember-XXXX' (last 4 of the device id), interval 100 ms for the first 2 minutes after "
     "entering setup, then 1 s. Setup mode times out after 15 minutes."),
    ("em-fail-ble-coded-phy", "failed_approach", None, "ble",
     "Tried Coded PHY (long range) for provisioning so setup works from another room: most iPhones can't "
     "initiate Coded PHY connections. Stayed on 1M PHY."),
    ("em-inc-ble-bond-loss", "incident", None, "ble",
     "EM-163: after a factory reset the phone still had the old bond and pairing failed silently. The app "
     "now detects PIN-or-key-missing and tells the user to forget 'Ember-XXXX' in Bluetooth settings."),
    ("em-proc-ble-sniff", "procedure", "Sniffing BLE provisioning", "ble debugging",
     "Flash the nRF52840 dongle with nRF Sniffer, capture in Wireshark, and set the device to debug pairing "
     "keys with `ember debug ble-keys on` (dev builds only)."),
    ("em-fact-relay-timing", "fact", None, "hvac",
     "Relay changes are sequenced: fan (G) on 0 s, then compressor (Y) 5 s later; on stop, Y off first and G "
     "stays on for 90 s to pull remaining cool air (fan overrun)."),
    ("em-inc-relay-weld", "incident", None, "hvac hardware",
     "EM-185: a relay contact welded on a rev B unit and heat stayed on. The firmware now checks the "
     "current-sense line after opening W and shows a service warning; rev C uses solid-state relays for W."),
    ("em-con-relay-api", "constraint", None, "hvac",
     "Only the hvac thread may call relay_set(); other threads post an hvac_request message. Keeps the "
     "interlock and the compressor timer in one place."),
    ("em-fact-sensor-sampling", "fact", None, "sensors",
     "SHT40 is read every 10 s in high-precision mode (8.3 ms measurement); the heater is never enabled "
     "because it skews the next readings for minutes."),
    ("em-fail-sensor-heater", "failed_approach", None, "sensors",
     "Tried the SHT40's built-in heater to dry out condensation in bathrooms: temperature read 3 °C high for "
     "10 minutes after each pulse. Disabled."),
    ("em-task-remote-sensor", "task", "Remote room sensors", "sensors ble",
     "EM-199: support battery BLE room sensors (our own CR2032 puck) averaged into the control temperature. "
     "Needs a BLE central role alongside the peripheral and a pairing flow in the app."),
    ("em-status-remote-sensor", "status", None, "sensors ble",
     "Remote sensor puck: hardware EVT done, firmware prototype advertises temperature every 60 s. Thermostat "
     "side not started; waiting on EM-199 prioritisation."),
    ("em-ref-zephyr-fork", "reference", None, "rtos",
     "We build against our NCS fork github.com/ember-labs/sdk-nrf (branch ember/v2.5-branch) with three "
     "patches listed in PATCHES.md. Rebase on every NCS minor."),
    ("em-fact-uicr", "fact", None, "factory",
     "UICR customer registers: 0-1 device id, 2 sensor offset (centi-°C), 3 board revision, 4-7 Matter "
     "discriminator and passcode reference."),
    ("em-proc-recover-unit", "procedure", "Recovering a unit stuck in a boot loop", "ota support",
     "Power cycle twice within 10 s: MCUboot reverts to the confirmed image. If that fails, support can "
     "push the recovery image over Matter OTA from the cloud console."),
    ("em-fact-thread-role", "fact", None, "matter thread",
     "Ember acts as a Thread router (always powered from the C wire); in power-stealing mode it joins as a "
     "sleepy end device instead."),
    ("em-pref-asserts", "preference", None, "code style",
     "Use __ASSERT for programming errors in debug builds only; runtime faults that can happen in the field "
     "(sensor NACK, UART timeout) must be handled and counted in a Memfault metric."),
]

_EM_PAIRS: list[tuple[_Raw, _Raw]] = [
    (
        ("em-dec-rtos-freertos", "decision", None, "rtos",
         "Base the firmware on FreeRTOS with the nRF5 SDK 17."),
        ("em-dec-rtos-zephyr", "decision", "Zephyr instead of FreeRTOS + nRF5 SDK", "rtos",
         "Moved from FreeRTOS + nRF5 SDK to Zephyr (nRF Connect SDK): the nRF5 SDK is in maintenance mode and "
         "Matter support only exists in NCS."),
    ),
    (
        ("em-dec-ota-dual-bank-ext", "decision", None, "ota flash",
         "OTA stores the downloaded image in external SPI flash (W25Q32) and MCUboot swaps it in with scratch."),
        ("em-dec-ota-internal-move", "decision", None, "ota flash",
         "OTA slots are now both in internal flash with swap-using-move; the external W25Q32 was dropped from "
         "rev C to save $0.41 per unit and a failure point."),
    ),
    (
        ("em-dec-hysteresis-1c", "decision", None, "control",
         "Single-stage control uses a ±1.0 °C hysteresis band around the setpoint."),
        ("em-dec-hysteresis-05c", "decision", None, "control",
         "Narrowed single-stage hysteresis to ±0.5 °C: customers noticed the 2 °C swing. Compressor "
         "protection still limits cycles via the 5-minute minimum off time."),
    ),
    (
        ("em-dec-cloud-http", "decision", None, "cloud",
         "Devices poll the cloud over HTTPS every 60 s for commands and post state."),
        ("em-dec-cloud-mqtt", "decision", "MQTT instead of HTTPS polling", "cloud",
         "Replaced 60-second HTTPS polling with a persistent MQTT connection: commands from the app now take "
         "under a second instead of up to a minute, and TLS handshakes dropped from 1,440 a day to a few."),
    ),
    (
        ("em-dec-sensor-si7021", "decision", None, "sensors",
         "Use the Si7021 for temperature and humidity."),
        ("em-dec-sensor-sht40", "decision", None, "sensors",
         "Switched the temp/humidity sensor from Si7021 to SHT40 for rev C: better accuracy (±0.2 °C) and "
         "the Si7021 went on allocation with 40-week lead times."),
    ),
]

_EM_CHECKPOINTS: list[_Checkpoint] = [
    (
        "em-cp-matter-deadband",
        "Matter cert failures (setpoint deadband): fixed 2 of 3 cases on the bench with chip-tool.",
        ["Clamp, don't reject: writes that violate MinSetpointDeadBand move the other setpoint, as the spec's "
         "auto mode examples do."],
        ["TC-TSTAT-2.2 step 7 still fails: chip-tool expects CONSTRAINT_ERROR for OccupiedCoolingSetpoint "
         "above AbsMaxCoolSetpointLimit."],
        [],
        ["Return CONSTRAINT_ERROR for absolute-limit violations, rerun TC-TSTAT-2.2, send logs to the lab "
         "before the re-test."],
    ),
    (
        "em-cp-ghosting",
        "E-paper ghosting (EM-197): reproduced in the climate chamber at 8 °C.",
        ["Below 12 °C do a full refresh every 5 partial updates instead of 20."],
        ["Low-temperature LUT from the panel vendor is under NDA; waiting for the signed copy from Good "
         "Display."],
        ["Slowing the partial-refresh waveform by doubling frame time: ghosting unchanged, refresh took "
         "0.9 s."],
        ["Ship the interval change in 2.4.1 and release 2.4 past the 2% ring."],
    ),
    (
        "em-cp-heat-pump-aux",
        "Aux heat lockout (EM-195): cloud weather feed wired into the device state topic.",
        ["Lock out aux heat above 4 °C outdoor by default; installer can set 0-10 °C."],
        ["What to do when the weather feed is stale for >3 h: assume cold (allow aux) or keep last value?"],
        ["Using the device's own temperature as a proxy for outdoor temperature: meaningless indoors."],
        ["Add the installer menu entry and HIL test with the furnace simulator's aux relay."],
    ),
    (
        "em-cp-humidity",
        "Humidifier control (EM-190): rev D relay channel verified on the bench.",
        [],
        ["Blocked on rev D boards: EVT units arrive in three weeks."],
        ["Driving the humidifier from the G (fan) terminal on rev C: turns the fan on with it, rejected."],
        ["Write the humidity hysteresis logic against native_sim meanwhile."],
    ),
    (
        "em-cp-wifi-scan",
        "Power-stealing Wi-Fi scans (EM-167 follow-up): scan deferral merged, tested on two furnaces.",
        ["While power stealing, Wi-Fi reconnect waits for a heat call to end (relay open) before scanning."],
        [],
        ["Lowering ESP32-C3 TX power to 8 dBm during scans: still 28 mA peak, above the 20 mA limit."],
        ["Ask support to re-test with the customer who had the Carrier furnace."],
    ),
    (
        "em-cp-remote-sensor",
        "Remote sensor spike (EM-199): thermostat connects to the puck as BLE central and reads temperature.",
        ["Remote readings older than 5 minutes are dropped from the average."],
        ["Running central and peripheral together pushes free heap to 9 KB, under the 12 KB floor."],
        ["Scanning for pucks continuously: radio duty cycle broke the power-stealing budget."],
        ["Cut CONFIG_BT_BUF_ACL_RX_COUNT and measure heap again; then design the app pairing flow."],
    ),
]

_EM_QUERIES: list[_Query] = [
    # paraphrase
    ("can the thermostat run the air conditioning and the furnace simultaneously", "paraphrase",
     ["em-con-relay-interlock"], []),
    ("how long must the AC compressor rest before starting again", "paraphrase",
     ["em-con-compressor-delay"], []),
    ("why does the thermostat read warmer than the room", "paraphrase", ["em-fact-sensor-offset"], []),
    ("what stops a bad firmware update from bricking units for good", "paraphrase",
     ["em-con-ota-rollback", "em-arch-ota"], []),
    ("how does the unit get power in houses without a common wire", "paraphrase", ["em-fact-power"], []),
    ("how much free memory should the firmware keep at idle", "paraphrase", ["em-fact-memory-budget"], []),
    ("temperature reading stopped changing for hours on some devices", "paraphrase",
     ["em-inc-sensor-stuck"], []),
    ("heat pump blowing cold in heating mode after install", "paraphrase", ["em-inc-ob-polarity"], []),
    # entity
    ("EM-173", "entity", ["em-inc-ota-bricked"], []),
    ("CONFIG_BT_MAX_CONN", "entity", ["em-fact-ble-conn"], []),
    ("boot_write_img_confirmed", "entity", ["em-con-ota-rollback"], []),
    ("mqtt.ember.cloud:8883 topics", "entity", ["em-fact-cloud-protocol"], []),
    ("ember-fw-prod-p256", "entity", ["em-fact-signing-keys"], []),
    ("TC-TSTAT-2.2", "entity", ["em-cp-matter-deadband.o1", "em-cp-matter-deadband"], []),
    ("status 0x13 Pixel", "entity", ["em-inc-ble-android"], []),
    ("emberctl ota pause", "entity", ["em-proc-ota-rollout"], []),
    # decision
    ("when should the thermostat refuse auxiliary heat by default", "decision",
     ["em-cp-heat-pump-aux.d1"], []),
    ("how do we handle a Matter write that breaks the setpoint deadband", "decision",
     ["em-cp-matter-deadband.d1"], []),
    ("why does Ember talk to its cloud over a persistent connection", "decision", ["em-dec-cloud-mqtt"], []),
    ("which pairing mode is allowed for provisioning over bluetooth", "decision", ["em-con-ble-pairing"], []),
    ("what's our fix for ghosting on the display in a cold house", "decision", ["em-cp-ghosting.d1"], []),
    # superseded
    ("which RTOS does the thermostat firmware run on", "superseded", ["em-dec-rtos-zephyr", "em-arch-hw"],
     ["em-dec-rtos-freertos"]),
    ("where does a downloaded firmware image get written before swap", "superseded",
     ["em-dec-ota-internal-move", "em-arch-ota"], ["em-dec-ota-dual-bank-ext"]),
    ("how wide is the temperature band before heating kicks in", "superseded",
     ["em-dec-hysteresis-05c", "em-arch-control-loop"],
     ["em-dec-hysteresis-1c"]),
    ("how do devices receive commands from the Ember backend", "superseded",
     ["em-dec-cloud-mqtt", "em-fact-cloud-protocol"],
     ["em-dec-cloud-http"]),
    ("which humidity sensor part is on the board", "superseded", ["em-dec-sensor-sht40", "em-arch-hw"],
     ["em-dec-sensor-si7021"]),
    # failed
    ("did we try reducing radio transmit power so scans fit the power budget", "failed",
     ["em-cp-wifi-scan.f1"], []),
    ("could the fan terminal drive a humidifier on current boards", "failed", ["em-cp-humidity.f1"], []),
    ("has anyone tried a slower e-paper waveform against ghosting", "failed", ["em-cp-ghosting.f1"], []),
    ("can we use the indoor sensor as the outdoor temperature for aux lockout", "failed",
     ["em-cp-heat-pump-aux.f1"], []),
    # task
    ("what is holding 2.4 at the beta ring", "task", ["em-status-2-4", "em-cp-ghosting"], []),
    ("what's still failing for Matter certification", "task",
     ["em-status-matter-cert", "em-cp-matter-deadband.o1"], []),
    ("is humidifier support blocked on anything", "task", ["em-cp-humidity.o1", "em-cp-humidity"], []),
    ("still undecided: aux heat behaviour when the outdoor reading is hours old", "task",
     ["em-cp-heat-pump-aux.o1"], []),
    ("what should I do next on the ghosting issue", "task", ["em-cp-ghosting", "em-task-ghosting"], []),
    ("did we try sending only binary diffs for firmware updates", "failed", ["em-fail-ota-delta"], []),
    ("has long-range bluetooth been tried for setup from another room", "failed",
     ["em-fail-ble-coded-phy"], []),
    ("did anyone try the humidity sensor's heating element against condensation", "failed",
     ["em-fail-sensor-heater"], []),
    ("how stale can a room sensor reading be before we ignore it", "decision",
     ["em-cp-remote-sensor.d1"], []),
    ("what's the memory problem with room sensor support", "task",
     ["em-cp-remote-sensor.o1", "em-cp-remote-sensor"], []),
]


# ======================================================================================= Cadence (cd)
_CD: list[_Raw] = [
    ("cd-arch-overview", "architecture", "Cadence app architecture", "architecture",
     "Cadence mobile app is React Native 0.73 on Expo SDK 50 (dev client, EAS Build). Backend is NestJS 10 "
     "with a GraphQL API (Apollo Server 4) over Postgres 16 with Prisma. Workout files live in S3; jobs run "
     "on BullMQ with Redis."),
    ("cd-dec-yarn", "decision", None, "tooling mobile",
     "The Cadence monorepo uses Yarn 4 workspaces (apps/mobile, apps/api, packages/shared). Don't run npm "
     "install — it ignores the yarn.lock and breaks Metro's resolution of packages/shared."),
    ("cd-arch-gps", "architecture", "GPS recording", "gps tracking",
     "Runs are recorded with expo-location background updates (accuracy BestForNavigation, distanceInterval "
     "5 m) into WatermelonDB on the phone. Points are smoothed with a Kalman filter before distance is summed."),
    ("cd-inc-gps-ios-kill", "incident", "iOS stopped recording mid-run", "gps ios",
     "CD-311: iOS 17 suspended the app after ~25 min with the screen locked and the run lost its tail. "
     "pausesUpdatesAutomatically was true by default; now false and activityType fitness."),
    ("cd-inc-android-doze", "incident", None, "gps android",
     "CD-318: on Samsung phones runs had straight-line gaps — One UI battery optimisation killed the "
     "foreground service. We now prompt users to exempt Cadence and link to dontkillmyapp.com."),
    ("cd-fact-distance", "fact", None, "gps",
     "Distance = sum of haversine segments between filtered points; points with accuracy worse than 25 m or "
     "speed above 12 m/s are dropped. Elevation gain uses the barometer where available, else a DEM lookup "
     "on the server."),
    ("cd-inc-tunnel-spike", "incident", None, "gps",
     "CD-325: a run through a tunnel recorded a 4:10/km → 1:02/km spike when GPS came back 600 m away. Gap "
     "segments longer than 30 s are now interpolated with the pace before the gap."),
    ("cd-arch-sync", "architecture", "Offline sync", "sync offline",
     "The phone is offline-first: WatermelonDB locally, synced with the API through the pull/push sync "
     "protocol (`syncChanges` GraphQL mutation, `changesSince(lastPulledAt)` query). Server wins on conflicts "
     "except for fields the user edited last (per-field updated_at)."),
    ("cd-con-sync-idempotent", "constraint", None, "sync",
     "Push sync must be idempotent: the app retries on any network error, so every created record carries a "
     "client-generated UUID v7 and the server upserts by it."),
    ("cd-inc-sync-dupes", "incident", None, "sync",
     "CD-290: some runs appeared twice after a flaky connection — the server generated ids on push, so a "
     "retried push created a second run. Fixed by client UUIDs (see sync idempotency)."),
    ("cd-fact-sync-batch", "fact", None, "sync",
     "Sync pushes at most 500 records per request and GPS points are not synced through it: they are "
     "uploaded as a gzipped FIT file to S3 with a presigned URL, then referenced by the run."),
    ("cd-arch-health", "architecture", "Health platform integrations", "health integrations",
     "Apple Health via react-native-health (write workouts + routes, read heart rate); Android via Health "
     "Connect (react-native-health-connect). Google Fit is not supported on new installs."),
    ("cd-con-health-data", "constraint", None, "health privacy",
     "Data read from HealthKit must not be used for advertising or sold, and must never leave the device "
     "except to our own backend for the user's features (App Store 5.1.3). No HealthKit data to analytics."),
    ("cd-inc-hr-duplicates", "incident", None, "health",
     "CD-334: heart-rate charts doubled up for users with an Apple Watch and a Polar strap both writing to "
     "Health. We now take the source with the most samples per workout."),
    ("cd-arch-plans", "architecture", None, "training plans",
     "Training plans are templates (Plan → Week → Workout → Step) authored in the admin; a user's plan is an "
     "instance with dates. Adaptive plans adjust next week's volume from completed vs planned load."),
    ("cd-fact-load-model", "fact", "Training load model", "training",
     "Training load uses TRIMP from heart rate when available, else an RPE × duration estimate. Fitness and "
     "fatigue are 42-day and 7-day exponentially weighted averages (the Banister model)."),
    ("cd-con-no-medical", "constraint", None, "training legal",
     "Never show medical advice or injury diagnosis text; copy must say 'consider resting' not 'you are "
     "injured'. Legal reviewed wording is in packages/shared/copy/health.ts."),
    ("cd-arch-payments", "architecture", "Subscriptions", "payments",
     "Subscriptions go through RevenueCat (App Store + Play Billing); the API receives RevenueCat webhooks and "
     "sets user.entitlements. Entitlement 'pro' unlocks plans and advanced analytics."),
    ("cd-fail-stripe-webview", "failed_approach", None, "payments",
     "Tried selling Pro through Stripe Checkout in a web view to skip the store cut — App Review rejected "
     "build 2.3 under 3.1.1. Reverted to in-app purchase."),
    ("cd-con-webhook-verify", "constraint", None, "payments security",
     "RevenueCat webhooks must be verified by the Authorization header secret (REVENUECAT_WEBHOOK_AUTH) "
     "before touching entitlements; unverified requests get 401 and are logged."),
    ("cd-inc-entitlement-lag", "incident", None, "payments",
     "CD-302: users who bought Pro saw the paywall again for minutes because the app waited for the webhook. "
     "The app now trusts the RevenueCat SDK's customerInfo right after purchase and the server reconciles."),
    ("cd-fact-push", "fact", None, "notifications",
     "Push notifications via Expo push service; tokens stored in push_token with platform and app version. "
     "Workout reminders are scheduled locally on the device, not by the server."),
    ("cd-fact-analytics", "fact", None, "analytics privacy",
     "Product analytics: PostHog (EU cloud). Events are named object_action in snake_case (run_saved, "
     "plan_started). No location, health or free-text fields in event properties."),
    ("cd-pref-gql", "preference", None, "api style",
     "Owner prefers code-first GraphQL with NestJS decorators, not SDL files. Every mutation returns the "
     "changed object plus userErrors, never throws for validation errors."),
    ("cd-pref-components", "preference", None, "mobile style",
     "Style with the Tamagui theme tokens (packages/ui); no inline hex colours, no StyleSheet.create in new "
     "screens."),
    ("cd-proc-release-mobile", "procedure", "Mobile release", "release mobile",
     "`eas build --profile production --platform all`, then `eas submit`. JS-only fixes go out as EAS Update "
     "to channel production; native changes (new modules, permissions) always need a store build."),
    ("cd-con-ota-native", "constraint", None, "release mobile",
     "Never ship an EAS Update that needs a native module the installed binary lacks; runtimeVersion policy "
     "'fingerprint' protects against it — don't switch it to appVersion."),
    ("cd-inc-bad-update", "incident", None, "release mobile",
     "CD-307: an EAS Update crashed the app on launch for 2.8.0 binaries because runtimeVersion was "
     "appVersion and the update used a new native module. Rolled back with `eas update:rollback`; switched "
     "to the fingerprint policy."),
    ("cd-proc-api-deploy", "procedure", None, "deploy api",
     "API deploys: merge to main → GitHub Actions builds the Docker image → Render deploys to staging; "
     "promote to prod in Render. Prisma migrations run with `prisma migrate deploy` in the pre-deploy command."),
    ("cd-con-prisma-migrations", "constraint", None, "postgres api",
     "Never edit a Prisma migration that has been applied anywhere; create a new one. Destructive changes "
     "(drop column, rename) need the expand/contract pattern across two deploys."),
    ("cd-fact-db", "fact", None, "postgres",
     "Postgres 16 on Render (Pro plan, 4 GB). Runs table has ~14M rows; route points aren't in Postgres (FIT "
     "files in S3)."),
    ("cd-inc-leaderboard-slow", "incident", None, "postgres performance",
     "CD-340: club leaderboard query took 9 s for a 3k-member club (sum of distance by week). Added a "
     "weekly_totals materialised table updated on run save."),
    ("cd-fact-clubs", "fact", None, "social",
     "Clubs: up to 5,000 members; weekly leaderboard by distance or time; admins can pin posts. Club "
     "challenges are a Pro feature."),
    ("cd-con-privacy-zones", "constraint", "Privacy zones hide start and end", "privacy gps",
     "Users can set privacy zones (200-1000 m radius) around home/work; any shared map or segment must clip "
     "the route inside them, server side. Never send unclipped routes to other users' devices."),
    ("cd-inc-privacy-leak", "incident", None, "privacy gps",
     "CD-296: the share-image generator drew the full route, including inside privacy zones, because it "
     "used the owner's cached track. It now renders from the clipped track only; affected images were purged."),
    ("cd-fact-watch", "fact", None, "wearables",
     "Garmin import via the Garmin Health API (push webhooks with FIT files); Apple Watch via HealthKit "
     "workouts. No native watchOS app."),
    ("cd-task-watch-app", "task", None, "wearables",
     "CD-350: standalone watchOS app for recording runs without the phone. Needs a SwiftUI target in the "
     "Expo prebuild and WatchConnectivity sync."),
    ("cd-task-audio-cues", "task", None, "training audio",
     "CD-356: spoken pace and interval cues during runs (expo-speech) with ducking of music; settings per "
     "workout step."),
    ("cd-status-health-connect", "status", None, "health android",
     "Health Connect integration is live on Android 14+; on Android 13 it needs the Health Connect app from "
     "Play. 38% of Android users have connected it."),
    ("cd-fact-maps", "fact", None, "maps",
     "Maps use Mapbox (rnmapbox/maps) with our custom 'cadence-outdoors' style; offline tile packs up to "
     "200 MB for Pro users."),
    ("cd-fact-auth", "fact", None, "auth",
     "Auth: Sign in with Apple, Google and email magic code (6 digits, 10 min). JWT access tokens 15 min, "
     "refresh tokens 60 days rotated on use, stored in expo-secure-store."),
    ("cd-inc-refresh-race", "incident", None, "auth",
     "CD-314: users got logged out randomly — two parallel requests refreshed the token at once and the "
     "second used the already-rotated refresh token. The Apollo link now queues requests behind a single "
     "in-flight refresh."),
    ("cd-fact-testing", "fact", None, "testing",
     "Mobile tests: Jest + React Native Testing Library; E2E with Maestro flows in apps/mobile/.maestro "
     "run on EAS. API: Jest with a Testcontainers Postgres."),
    ("cd-pref-maestro", "preference", None, "testing",
     "Every new screen gets a Maestro flow covering its happy path; the product owner watches the recording "
     "in PR review."),
    ("cd-ref-design", "reference", None, "design",
     "Designs are in Figma file 'Cadence App 2024' (pages per feature); the component library page maps 1:1 "
     "to packages/ui."),
    ("cd-fact-units", "fact", None, "settings",
     "Units are stored SI on the server (metres, seconds); conversion to km/mi and min/km vs min/mi happens "
     "only in the app, from the user's preference."),
    ("cd-inc-pace-rounding", "incident", None, "settings",
     "CD-329: paces like 4:60/km appeared — seconds were rounded after splitting minutes. Format now rounds "
     "total seconds first (formatPace in packages/shared)."),
    ("cd-fact-segments", "fact", None, "segments",
     "Segments are matched on the server after upload with a Fréchet-distance check against the segment "
     "polyline (tolerance 25 m); leaderboards per segment keep each user's best effort."),
    ("cd-task-segment-perf", "task", None, "segments performance",
     "CD-361: segment matching takes 40 s for long rides uploaded from Garmin (cyclists). Needs a PostGIS "
     "bounding-box prefilter before the Fréchet check."),
    ("cd-fact-queues", "fact", None, "jobs",
     "BullMQ queues: fit-processing (parse FIT, compute stats), segments, notifications, exports. Failed jobs "
     "retry 5 times with exponential backoff; dead letters in the failed set, visible in Bull Board at "
     "/admin/queues."),
    ("cd-con-gdpr-export", "constraint", None, "privacy",
     "GDPR export must include runs, FIT files, plans, club posts and health-derived metrics, delivered within "
     "30 days; deletion removes FIT files from S3 and backups roll off in 35 days."),
    ("cd-status-android-crash", "status", None, "android",
     "Android crash-free sessions 99.2% (target 99.5%). Top crash is a Mapbox OOM on low-RAM devices when "
     "loading offline packs."),
    ("cd-fact-feature-flags", "fact", None, "flags",
     "Feature flags via PostHog flags, read once at app start and cached; server flags through the same "
     "PostHog project with the user id."),
    ("cd-pref-prs", "preference", None, "workflow",
     "Conventional commits (feat:, fix:, chore:) — release notes are generated from them by release-please."),
    ("cd-fact-sync-trigger", "fact", None, "sync",
     "Sync runs on app foreground, after a run is saved, and every 15 minutes while the app is open. "
     "Background sync uses expo-background-fetch, which iOS runs whenever it likes."),
    ("cd-fail-sync-graphql-subs", "failed_approach", "GraphQL subscriptions for sync", "sync",
     "Tried pushing server changes to the app over GraphQL subscriptions (websockets): connections died on "
     "every network switch and battery use rose. Pull sync on triggers is enough."),
    ("cd-inc-sync-clock", "incident", None, "sync",
     "CD-299: edits made on a phone with a wrong clock lost to older server values because per-field "
     "updated_at came from the device. The server now stamps the time it received each change."),
    ("cd-proc-sync-debug", "procedure", "Debugging a sync problem for a user", "sync support",
     "Ask the user for the in-app diagnostic code (Settings → About, tap version 5×); it uploads the local "
     "sync log. Look it up in Bull Board job sync-diagnostics by that code."),
    ("cd-fail-gps-fused", "failed_approach", None, "gps android",
     "Tried Android's fused location provider in balanced mode to save battery: distance came out 4-7% "
     "short on tree-lined routes. Back to high accuracy during runs."),
    ("cd-fact-gps-battery", "fact", None, "gps battery",
     "A 1-hour run uses about 9% battery on an iPhone 14 and 11% on a Pixel 7 with the screen off; most of it "
     "is GPS, so we don't sample faster than 1 Hz."),
    ("cd-fact-auto-pause", "fact", None, "gps",
     "Auto-pause triggers when speed stays under 0.5 m/s for 4 s and resumes above 1 m/s; it can be turned "
     "off per activity type (off by default for trail runs)."),
    ("cd-inc-auto-pause-treadmill", "incident", None, "gps",
     "CD-331: treadmill runs auto-paused constantly because GPS speed was zero. Indoor activities now use "
     "the pedometer cadence for pause detection and never GPS."),
    ("cd-fact-healthkit-write", "fact", None, "health ios",
     "We write workouts to HealthKit with the route (HKWorkoutRoute) and active energy; we never write heart "
     "rate samples, only read them."),
    ("cd-fail-hr-ble-direct", "failed_approach", None, "health wearables",
     "Tried connecting chest straps directly over BLE (react-native-ble-plx) to get live heart rate: "
     "background BLE on iOS dropped after 10 minutes. Live HR now comes from HealthKit/Health Connect only."),
    ("cd-task-live-hr", "task", "Live heart rate during runs", "health wearables",
     "CD-365: show live heart rate zones during a run for Apple Watch users via HKWorkoutSession mirroring "
     "(iOS 17). Android equivalent not scoped."),
    ("cd-fact-paywall", "fact", None, "payments",
     "Paywall is a RevenueCat Paywalls template (offering 'default_v3'); price tests run as RevenueCat "
     "experiments, not PostHog flags."),
    ("cd-inc-family-sharing", "incident", None, "payments",
     "CD-343: Family Sharing members had Pro on iOS but lost it on the web dashboard because the API only "
     "looked at the purchaser's entitlement. We now read RevenueCat's subscriber attributes for shared access."),
    ("cd-con-price-display", "constraint", None, "payments",
     "Prices in the app must come from the store product (localized price string), never hard-coded; Apple "
     "rejects mismatched prices."),
    ("cd-fact-club-moderation", "fact", None, "social",
     "Club posts and comments go through OpenAI moderation before publishing; flagged ones are held for the "
     "club admin. Images aren't moderated yet."),
    ("cd-task-image-moderation", "task", None, "social",
     "CD-368: moderate images in club posts (AWS Rekognition or the OpenAI image moderation model), "
     "held for review above a threshold."),
    ("cd-status-clubs", "status", None, "social",
     "Clubs launched in 3.2: 4,100 clubs, 62% with fewer than 10 members. Challenges are used by 8% of Pro "
     "users."),
    ("cd-ref-api-schema", "reference", None, "api",
     "GraphQL schema is generated to apps/api/schema.gql on build; Apollo Studio graph 'cadence@prod' holds "
     "the registry and field usage."),
    ("cd-pref-errors-copy", "preference", None, "mobile style",
     "User-facing error messages are friendly and say what to do next ('Check your connection and try "
     "again'); never show GraphQL error codes to users."),
    ("cd-con-min-os", "constraint", None, "mobile",
     "Minimum OS: iOS 15 and Android 8 (API 26). Raising either needs product sign-off; 4% of users are on "
     "iOS 15."),
]

_CD_PAIRS: list[tuple[_Raw, _Raw]] = [
    (
        ("cd-dec-api-rest", "decision", None, "api",
         "The Cadence API is REST with OpenAPI-generated clients for the app."),
        ("cd-dec-api-graphql", "decision", "GraphQL instead of REST", "api",
         "Moved the API from REST to GraphQL (Apollo): the home feed made 7 REST calls on launch; one query now. "
         "REST endpoints remain only for webhooks and file uploads."),
    ),
    (
        ("cd-dec-store-redux", "decision", None, "mobile state",
         "App state in Redux Toolkit with redux-persist to AsyncStorage for offline use."),
        ("cd-dec-store-watermelon", "decision", None, "mobile state sync",
         "Local data moved from Redux + redux-persist to WatermelonDB: persisting 2 years of runs in "
         "AsyncStorage made cold start take 4 s. Redux is gone; UI state uses Zustand."),
    ),
    (
        ("cd-dec-payments-stripe", "decision", None, "payments",
         "Sell Pro through Stripe Checkout in a web view to avoid store fees."),
        ("cd-dec-payments-revenuecat", "decision", "In-app purchases through RevenueCat", "payments",
         "Pro is sold with in-app purchases through RevenueCat; Stripe web checkout was rejected by App Review "
         "(guideline 3.1.1) and removed."),
    ),
    (
        ("cd-dec-hosting-heroku", "decision", None, "deploy api",
         "Run the Cadence API on Heroku with Heroku Postgres."),
        ("cd-dec-hosting-render", "decision", None, "deploy api",
         "The Cadence API and Postgres moved from Heroku to Render: private networking for Redis, cheaper "
         "Postgres with PITR, and preview environments per PR."),
    ),
    (
        ("cd-dec-maps-google", "decision", None, "maps",
         "Use react-native-maps with Google Maps on both platforms."),
        ("cd-dec-maps-mapbox", "decision", None, "maps",
         "Maps switched from Google Maps to Mapbox: we need offline tile packs and our own outdoor style; "
         "Google's terms don't allow offline caching."),
    ),
    (
        ("cd-dec-android-google-fit", "decision", None, "health android",
         "Sync Android workouts through the Google Fit API."),
        ("cd-dec-android-health-connect", "decision", None, "health android",
         "Android health sync uses Health Connect; Google Fit APIs are deprecated (shutdown 2025) and no longer "
         "offered on new installs."),
    ),
]

_CD_CHECKPOINTS: list[_Checkpoint] = [
    (
        "cd-cp-audio-cues",
        "Audio cues (CD-356): pace announcements every km work on iOS with music ducking.",
        ["Cues use the OS text-to-speech voice in the user's app language; no recorded voice packs for now."],
        ["Android: ducking doesn't restore Spotify volume after the cue on Samsung devices."],
        ["Playing cues through expo-av with a generated audio file: 600 ms latency, cues arrived late at "
         "interval boundaries."],
        ["Request AUDIOFOCUS_GAIN_TRANSIENT_MAY_DUCK explicitly on Android and retest on the S23."],
    ),
    (
        "cd-cp-segment-perf",
        "Segment matching speed (CD-361): PostGIS prefilter prototype cuts a 180 km ride from 40 s to 3 s.",
        ["Store segment bounding boxes in a GiST-indexed geometry column and prefilter with ST_Intersects "
         "before the Fréchet check."],
        ["Prisma can't express the geometry column; need a raw SQL migration and a typed raw query wrapper."],
        ["Simplifying the ride polyline with Douglas-Peucker before matching: missed short segments."],
        ["Write the raw migration, backfill bounding boxes for the 120k existing segments in batches."],
    ),
    (
        "cd-cp-watch",
        "watchOS app spike (CD-350): SwiftUI target builds in prebuild via a config plugin.",
        ["Watch records on its own and hands the workout to the phone with WatchConnectivity transferFile."],
        ["EAS Build doesn't sign the watch extension with the right provisioning profile yet."],
        ["Sharing WatermelonDB with the watch through an App Group: the watch can't load the JSI adapter."],
        ["Fix the credentials.json for the extension target and try a TestFlight build."],
    ),
    (
        "cd-cp-mapbox-oom",
        "Mapbox OOM on low-RAM Android (top crash): reproduced on a 3 GB Galaxy A14.",
        ["Cap offline packs at 80 MB on devices reporting under 4 GB RAM."],
        ["Need crash-free numbers after 3.4.1 rollout before closing."],
        [],
        ["Roll 3.4.1 to 100% on Play if crash-free is above 99.4% on day 3."],
    ),
    (
        "cd-cp-live-hr",
        "Live heart rate (CD-365): workout mirroring from Apple Watch delivers HR to the phone every ~5 s.",
        ["Live HR is Pro-only and iOS 17+; older iOS shows HR after the run from HealthKit."],
        ["Mirroring needs the watch app installed; without the watchOS app (CD-350) there is nothing to mirror."],
        ["Polling HealthKit for new heart-rate samples during the run: samples arrive in batches minutes late."],
        ["Wait for the watch app TestFlight build, then wire mirroring into the run screen."],
    ),
]

_CD_QUERIES: list[_Query] = [
    # paraphrase
    ("runs recorded on iPhone stop partway when the phone is locked", "paraphrase",
     ["cd-inc-gps-ios-kill"], []),
    ("how do we hide where a runner lives on shared routes", "paraphrase", ["cd-con-privacy-zones"], []),
    ("what happens if the app retries uploading the same workout twice", "paraphrase",
     ["cd-con-sync-idempotent", "cd-inc-sync-dupes"], []),
    ("can we send heart rate data from Apple Health to our analytics tool", "paraphrase",
     ["cd-con-health-data"], []),
    ("people randomly signed out of the running app", "paraphrase", ["cd-inc-refresh-race"], []),
    ("pace shows impossible values like sixty seconds", "paraphrase", ["cd-inc-pace-rounding"], []),
    ("how are fitness and fatigue calculated", "paraphrase", ["cd-fact-load-model"], []),
    ("a JavaScript hotfix pushed to phones crashed on start", "paraphrase", ["cd-inc-bad-update"], []),
    # entity
    ("CD-311", "entity", ["cd-inc-gps-ios-kill"], []),
    ("REVENUECAT_WEBHOOK_AUTH", "entity", ["cd-con-webhook-verify"], []),
    ("changesSince(lastPulledAt)", "entity", ["cd-arch-sync"], []),
    ("/admin/queues Bull Board", "entity", ["cd-fact-queues"], []),
    ("formatPace", "entity", ["cd-inc-pace-rounding"], []),
    ("runtimeVersion fingerprint", "entity", ["cd-con-ota-native", "cd-inc-bad-update"], []),
    ("guideline 3.1.1", "entity", ["cd-dec-payments-revenuecat"], []),
    ("AUDIOFOCUS_GAIN_TRANSIENT_MAY_DUCK", "entity", ["cd-cp-audio-cues"], []),
    # decision
    ("should the spoken workout cues be recorded voices", "decision", ["cd-cp-audio-cues.d1"], []),
    ("how will segment matching avoid checking every segment", "decision", ["cd-cp-segment-perf.d1"], []),
    ("how does a run recorded on the watch reach the phone", "decision", ["cd-cp-watch.d1"], []),
    ("what's the GraphQL style in the Nest API: schema first?", "decision", ["cd-pref-gql"], []),
    ("how big may offline map downloads be on cheap Android phones", "decision", ["cd-cp-mapbox-oom.d1"], []),
    # superseded
    ("how does the Cadence app talk to the backend: REST or something else", "superseded",
     ["cd-dec-api-graphql", "cd-arch-overview"], ["cd-dec-api-rest"]),
    ("where does the running app keep runs on the device", "superseded",
     ["cd-dec-store-watermelon", "cd-arch-sync"],
     ["cd-dec-store-redux"]),
    ("how do users pay for Pro", "superseded",
     ["cd-dec-payments-revenuecat", "cd-arch-payments"], ["cd-dec-payments-stripe"]),
    ("where is the Cadence backend hosted", "superseded",
     ["cd-dec-hosting-render", "cd-proc-api-deploy"], ["cd-dec-hosting-heroku"]),
    ("which map SDK renders routes in the running app", "superseded", ["cd-dec-maps-mapbox", "cd-fact-maps"],
     ["cd-dec-maps-google"]),
    ("how are Android workouts synced to the phone's health store", "superseded",
     ["cd-dec-android-health-connect", "cd-arch-health"], ["cd-dec-android-google-fit"]),
    # failed
    ("did we try generating audio files for the pace announcements", "failed", ["cd-cp-audio-cues.f1"], []),
    ("has simplifying the GPS track before segment matching been tried", "failed",
     ["cd-cp-segment-perf.f1"], []),
    ("could the watch just share the phone's local database", "failed", ["cd-cp-watch.f1"], []),
    ("did Stripe checkout in a web view work out for Pro", "failed",
     ["cd-fail-stripe-webview", "cd-dec-payments-revenuecat"], []),
    # task
    ("what's blocking a TestFlight build of the watch app", "task", ["cd-cp-watch.o1", "cd-cp-watch"], []),
    ("when can we close the top Android crash", "task", ["cd-cp-mapbox-oom", "cd-cp-mapbox-oom.o1"], []),
    ("what's left on audio cues for Android", "task", ["cd-cp-audio-cues.o1", "cd-cp-audio-cues"], []),
    ("next steps on faster segment matching", "task", ["cd-cp-segment-perf", "cd-cp-segment-perf.o1"], []),
    ("did we try realtime push of server changes to the app instead of polling", "failed",
     ["cd-fail-sync-graphql-subs"], []),
    ("has the battery-saving location mode been tried during runs", "failed", ["cd-fail-gps-fused"], []),
    ("can the app talk to a heart rate strap itself — tried?", "failed", ["cd-fail-hr-ble-direct"], []),
    ("who gets live heart rate on the run screen", "decision", ["cd-cp-live-hr.d1"], []),
    ("what is live heart rate waiting on", "task", ["cd-cp-live-hr.o1", "cd-cp-live-hr"], []),
]


# ======================================================================================= Orchard (or)
_OR: list[_Raw] = [
    ("or-arch-overview", "architecture", "Orchard data platform overview", "architecture",
     "Orchard collects shelf prices from grocery retailers' websites and apps: Playwright scrapers (Python) "
     "land raw JSON in S3 (s3://orchard-raw/<retailer>/<date>/), Snowpipe loads it into Snowflake RAW, dbt "
     "builds STAGING → CORE → MARTS, and Looker serves the dashboards. Airflow 2.8 (MWAA) orchestrates."),
    ("or-fact-retailers", "fact", None, "scrapers",
     "We scrape 14 retailers in the UK and IE: Tesco, Sainsbury's, Asda, Morrisons, Aldi, Lidl, Waitrose, "
     "Ocado, Iceland, Co-op, M&S, Dunnes, SuperValu and Tesco IE. Each has a module in scrapers/retailers/."),
    ("or-con-robots", "constraint", "Respect robots.txt and rate limits", "scrapers legal",
     "Scrapers must honour robots.txt, identify as 'OrchardBot/2.0 (+https://orchard.example/bot)', and stay "
     "under 1 request/second per retailer domain. Legal signed off on exactly this; don't raise it."),
    ("or-con-no-login", "constraint", None, "scrapers legal",
     "Never scrape behind a login or use a loyalty-card account; only public prices. Loyalty prices "
     "(Clubcard, Nectar) are taken from public product pages where shown."),
    ("or-arch-scraper-framework", "architecture", "Scraper framework", "scrapers",
     "Each retailer implements RetailerScraper: categories() → product_urls() → parse_product(). The runner "
     "handles rate limiting, retries, proxy rotation and writes one JSON line per product with scraped_at "
     "and a raw HTML hash."),
    ("or-inc-tesco-layout", "incident", None, "scrapers tesco",
     "OR-412: Tesco changed product page markup (price moved into a data-auto attribute) and parse_product "
     "returned null prices for 2 days before anyone noticed. Added a freshness test: null-price rate > 5% per "
     "retailer fails the DAG."),
    ("or-inc-aldi-captcha", "incident", None, "scrapers aldi",
     "OR-430: Aldi started serving a Cloudflare challenge to datacenter IPs. Aldi now runs through the "
     "residential proxy pool at half the usual rate."),
    ("or-fact-proxies", "fact", None, "scrapers proxies",
     "Proxies: datacenter pool by default; residential pool (Bright Data zone orchard_resi) only for retailers "
     "listed in RESIDENTIAL_RETAILERS because it costs ~£8/GB."),
    ("or-fact-schedule", "fact", None, "airflow scrapers",
     "Scrape DAGs run daily at 03:00 UTC, one DAG per retailer (scrape_<retailer>), then dbt_daily at 09:00 "
     "UTC after a sensor waits for all retailers' Snowpipe loads."),
    ("or-arch-snowflake", "architecture", "Snowflake layout", "snowflake",
     "Database ORCHARD with schemas RAW (Snowpipe, VARIANT), STAGING (dbt views), CORE (dbt tables) and MARTS "
     "(aggregates for Looker). Warehouses: LOAD_WH (XS), TRANSFORM_WH (M), BI_WH (S, auto-suspend 60 s)."),
    ("or-con-warehouse-cost", "constraint", None, "snowflake cost",
     "Snowflake budget is $4,000/month; TRANSFORM_WH must not go above M without a cost note in the PR. "
     "Resource monitor suspends at 110% of budget."),
    ("or-inc-credit-spike", "incident", None, "snowflake cost",
     "OR-398: a full refresh of fct_prices on an L warehouse burned 380 credits in a day. Full refreshes of "
     "incremental models now need --vars '{allow_full_refresh: true}' and a ticket."),
    ("or-arch-dbt", "architecture", "dbt project structure", "dbt",
     "dbt project in transform/: staging models stg_<retailer>__products (one per retailer), core models "
     "dim_product, dim_store, fct_prices (incremental, unique key product_id + price_date + store_id), marts "
     "mart_basket_index and mart_promo_depth."),
    ("or-fact-fct-prices", "fact", None, "dbt",
     "fct_prices is incremental with merge strategy on (product_id, price_date, store_id), clustered by "
     "price_date. ~1.9B rows; a day adds ~4M."),
    ("or-con-dbt-tests", "constraint", None, "dbt testing",
     "Every new dbt model needs unique + not_null on its key and a freshness or row-count test; PRs without "
     "them fail the dbt_ci job (dbt-checkpoint hooks)."),
    ("or-arch-product-matching", "architecture", "Product matching across retailers", "matching",
     "To compare prices, products are matched across retailers into canonical products: exact GTIN match "
     "first, then a sentence-embedding similarity on normalised title + size + brand, reviewed in Label "
     "Studio when the score is between 0.82 and 0.93."),
    ("or-fact-gtin", "fact", None, "matching",
     "Only Tesco, Sainsbury's, Ocado and Waitrose expose GTINs (barcodes) on product pages; for the others we "
     "rely on fuzzy matching. 61% of canonical products have a GTIN."),
    ("or-inc-size-parse", "incident", None, "matching",
     "OR-441: multipacks matched single items ('6 x 330ml' vs '330ml') and inflated price per litre. Size "
     "parser now extracts pack count × unit size and matching requires equal total volume within 2%."),
    ("or-fact-unit-price", "fact", None, "pricing",
     "Price per unit is computed in dbt (int_unit_prices) from parsed size to per-kg, per-litre or per-item; "
     "retailers' own unit prices are stored but not trusted (Asda rounds to 2 dp per 100 g)."),
    ("or-arch-promotions", "architecture", None, "promotions",
     "Promotions are parsed into promo_type (multibuy, price_cut, loyalty, rollback) with effective unit "
     "price. Multibuys like '3 for £5' are normalised to the per-item price when buying the full bundle."),
    ("or-inc-promo-meal-deal", "incident", None, "promotions",
     "OR-455: meal deals ('main + snack + drink £3.85') were parsed as a price cut on each item, showing "
     "sandwiches at £3.85 off. Meal deals now get promo_type bundle and are excluded from promo depth."),
    ("or-fact-looker", "fact", None, "looker bi",
     "Looker instance orchard.cloud.looker.com; LookML in the bi/ repo. Dashboards: Basket Index, Promo "
     "Depth, Price Changes. Clients get embedded dashboards with row-level filters by client_id."),
    ("or-con-client-rls", "constraint", None, "looker security",
     "Embedded dashboards must apply the client's access filter (user attribute client_id) — clients may only "
     "see retailers in their contract. Every new explore needs access_filter on client_retailers."),
    ("or-fact-basket-index", "fact", "Basket index definition", "metrics",
     "The basket index is the cost of a fixed 48-item basket per retailer, using the cheapest matching "
     "canonical product in each line, weighted by ONS CPI weights. Rebased to 100 at Jan 2023."),
    ("or-proc-add-retailer", "procedure", "Adding a retailer", "scrapers dbt",
     "1) scrapers/retailers/<name>.py implementing RetailerScraper; 2) add to RETAILERS in config; 3) Airflow "
     "DAG is generated from config; 4) dbt stg_<name>__products + add to int_products_unioned; 5) backfill 7 "
     "days before exposing in Looker."),
    ("or-proc-backfill", "procedure", None, "airflow dbt",
     "Backfill a date range with `airflow dags backfill scrape_<retailer> -s <start> -e <end>` — only works "
     "for dates we have raw HTML for (kept 30 days); then `dbt build -s fct_prices+ --vars "
     "'{start_date: ..., end_date: ...}'`."),
    ("or-fact-raw-retention", "fact", None, "storage",
     "Raw HTML is kept 30 days in s3://orchard-raw-html (lifecycle rule), parsed JSON forever in "
     "s3://orchard-raw. Reparsing older days is impossible."),
    ("or-pref-python", "preference", None, "code style",
     "Python 3.11, ruff + mypy strict on scrapers/. Pydantic v2 models for parsed products. No pandas in "
     "scrapers (memory on MWAA workers)."),
    ("or-pref-sql-style", "preference", None, "dbt style",
     "SQL style: lowercase keywords, CTEs named for what they hold, one model per file, sqlfluff with the "
     "dbt templater. No SELECT * outside staging."),
    ("or-fact-mwaa", "fact", None, "airflow",
     "Airflow is MWAA 2.8 (mw1.medium, 5-10 workers). DAG code deploys from the airflow/ folder via the "
     "deploy-dags workflow syncing to s3://orchard-mwaa/dags."),
    ("or-inc-mwaa-zombie", "incident", None, "airflow",
     "OR-420: scrape tasks became zombies when Playwright's Chromium used >2 GB and the worker was OOM-killed. "
     "Scrapers now run in ECS Fargate tasks launched by EcsRunTaskOperator; Airflow only orchestrates."),
    ("or-fact-ecs", "fact", None, "scrapers infra",
     "Scraper containers run on ECS Fargate (2 vCPU, 4 GB) from the orchard-scraper image in ECR; one task per "
     "retailer-category shard, max 20 concurrent."),
    ("or-fact-great-expectations", "fact", None, "data quality",
     "Great Expectations suites run on RAW after each load: price > 0, price < 500, currency GBP/EUR, "
     "product_url matches the retailer domain. Failures page the data on-call via Opsgenie."),
    ("or-inc-euro-prices", "incident", None, "data quality",
     "OR-447: Dunnes prices were treated as GBP in the basket index for a week because the stg model "
     "hard-coded currency. Currency now comes from the retailer config and core converts with daily ECB rates."),
    ("or-fact-fx", "fact", None, "pricing",
     "EUR → GBP conversion uses the ECB reference rate of the price date (table dim_fx_rate, loaded daily "
     "from the ECB SDMX API)."),
    ("or-con-pii", "constraint", None, "privacy",
     "We hold no personal data; store locations are public. Don't add anything that collects reviews with "
     "reviewer names."),
    ("or-status-matching", "status", None, "matching",
     "Product matching: 212k canonical products, 94.1% precision on the Q2 audit sample. Review queue in "
     "Label Studio has 3,100 pairs pending."),
    ("or-task-store-level", "task", None, "scrapers stores",
     "OR-470: store-level prices for Tesco and Sainsbury's (prices differ for Express/Local stores). Needs "
     "postcode-based store selection in the scraper and store_id in fct_prices (already in the key)."),
    ("or-task-dbt-upgrade", "task", None, "dbt",
     "OR-475: upgrade dbt-core 1.6 → 1.8 and dbt-snowflake; 1.8 changes unit test syntax and deprecates "
     "some of our macros' adapter calls."),
    ("or-status-q3", "status", None, "planning",
     "Q3: store-level prices (OR-470), Irish retailers in the basket index, and cutting Snowflake spend 15%. "
     "Looker-to-Superset evaluation is parked."),
    ("or-fact-costs", "fact", None, "cost",
     "Monthly run cost: Snowflake ~$3,400, MWAA $720, Fargate ~$600, residential proxies ~£900, Looker "
     "contract billed yearly."),
    ("or-ref-runbook", "reference", None, "oncall",
     "On-call runbook: docs/oncall.md (scraper failures, Snowpipe stuck, GE failures). Escalation is Opsgenie "
     "schedule 'data-oncall'."),
    ("or-proc-snowpipe-stuck", "procedure", None, "snowflake oncall",
     "If Snowpipe stops loading: SELECT SYSTEM$PIPE_STATUS('raw.products_pipe'); if paused, ALTER PIPE ... "
     "REFRESH for the missing prefix; check the S3 event notification to the SQS queue."),
    ("or-fact-dbt-ci", "fact", None, "dbt ci",
     "dbt CI builds modified models and their children (state:modified+) in a PR schema CI_<pr number>, "
     "deferring to prod manifest for everything else. Schemas dropped nightly."),
    ("or-inc-deferral", "incident", None, "dbt ci",
     "OR-438: dbt CI passed but prod failed — deferral used a stale prod manifest from before a column "
     "rename. The prod manifest is now uploaded after every prod run, not weekly."),
    ("or-fact-looker-pdts", "fact", None, "looker",
     "Looker PDTs are avoided; aggregates come from dbt marts. The one exception is pdt_client_baskets "
     "(client-defined baskets), rebuilt on the datagroup tied to dbt_daily completion."),
    ("or-pref-ownership", "preference", None, "workflow",
     "Each retailer scraper has an owner listed in CODEOWNERS; the owner reviews parser changes. Data "
     "consumers are told in #orchard-data before any metric definition changes."),
    ("or-fact-categories", "fact", None, "taxonomy",
     "Our category taxonomy has 3 levels (e.g. Dairy > Milk > Semi-skimmed) and retailers' categories are "
     "mapped to it in seeds/category_map.csv, 2,400 rows."),
    ("or-inc-category-drift", "incident", None, "taxonomy",
     "OR-459: Sainsbury's renamed 300 categories and unmapped products fell out of the basket index. dbt now "
     "warns when unmapped categories exceed 1% of a retailer's products."),
    ("or-fact-price-history", "fact", None, "pricing",
     "Price history starts 2021-03-01 for the big four and 2022-09 for the rest. The 2021-11 gap (scraper "
     "outage) is filled by carrying forward, flagged is_imputed."),
    ("or-fact-api", "fact", None, "api",
     "Some clients use the Orchard API (FastAPI on ECS) reading MARTS through a Snowflake service user; "
     "results cached in Redis for 6 h because marts change once a day."),
    ("or-con-api-keys", "constraint", None, "api security",
     "API keys are per client, hashed (argon2) in Postgres; scopes restrict retailers like the Looker "
     "access filter. Never log full keys; log the 8-char prefix."),
    ("or-fact-scraper-retries", "fact", None, "scrapers",
     "The runner retries a product page 3 times with exponential backoff (2, 8, 32 s) on 5xx and timeouts; "
     "403/429 stop the whole retailer run and page on-call."),
    ("or-fail-scraper-async-http", "failed_approach", "httpx async for JS retailers", "scrapers",
     "Tried replacing Playwright with async httpx for Sainsbury's by calling their internal GraphQL: the "
     "endpoint needs a token minted by their JS bundle every few minutes. Back to Playwright."),
    ("or-inc-morrisons-pagination", "incident", None, "scrapers morrisons",
     "OR-433: Morrisons category pages switched to infinite scroll and we scraped only the first 24 products "
     "per category for 4 days. Scraper now scrolls until the product count stops growing."),
    ("or-pref-scraper-tests", "preference", None, "scrapers testing",
     "Each scraper has saved HTML fixtures in tests/fixtures/<retailer>/ and a parse test; refresh fixtures "
     "when a retailer changes layout, don't edit them by hand."),
    ("or-fact-playwright-config", "fact", None, "scrapers",
     "Playwright runs Chromium headless with images, fonts and media blocked (route abort), viewport "
     "1366x768, locale en-GB; saves ~70% bandwidth."),
    ("or-fail-playwright-firefox", "failed_approach", None, "scrapers",
     "Tried Firefox in Playwright to dodge Cloudflare fingerprinting on Aldi: challenged the same way, and "
     "30% slower. Residential proxies are what worked."),
    ("or-fact-dbt-macros", "fact", None, "dbt",
     "Shared dbt macros live in transform/macros/: parse_pack_size, to_gbp, and generate_schema_name "
     "(overridden so prod models land in CORE/MARTS without a prefix)."),
    ("or-fail-dbt-python-models", "failed_approach", None, "dbt snowflake",
     "Tried a dbt Python model (Snowpark) for product matching scores: warehouse startup and package "
     "resolution made it 6x slower than the SQL + UDF version."),
    ("or-inc-dbt-snapshot", "incident", None, "dbt",
     "OR-444: the dim_product snapshot exploded to 40M rows because scraped_at was in the check columns, so "
     "every day looked like a change. Snapshot now checks only title, size and brand."),
    ("or-proc-dbt-local", "procedure", "Running dbt locally", "dbt",
     "`dbt build -s <model>+ --target dev` writes to your DEV_<USER> schema using TRANSFORM_WH_DEV (XS). "
     "Keep --defer --state prod-artifacts/ to avoid rebuilding upstream."),
    ("or-fact-snowpipe", "fact", None, "snowflake",
     "Snowpipe raw.products_pipe auto-ingests from s3://orchard-raw via S3 event notifications to SQS; load "
     "history is in RAW.LOAD_AUDIT, one row per file."),
    ("or-inc-snowpipe-dupes", "incident", None, "snowflake",
     "OR-451: a re-uploaded S3 file was loaded twice (Snowpipe dedupes by name only for 14 days and the file "
     "was older). stg models now dedupe on raw_html_hash."),
    ("or-fact-matching-review", "fact", None, "matching",
     "Label Studio review: two reviewers per pair, disagreements go to the matching lead. About 400 pairs "
     "a day get reviewed."),
    ("or-fail-matching-llm", "failed_approach", None, "matching",
     "Tried GPT-4 to judge ambiguous product pairs instead of human review: 89% agreement with reviewers but "
     "$0.02 a pair and inconsistent on own-brand sizes. Kept for suggestions only."),
    ("or-task-matching-queue", "task", None, "matching",
     "OR-478: cut the Label Studio backlog (3,100 pairs) by auto-accepting pairs with equal GTIN-less size, "
     "brand and score > 0.9. Needs an audit of 500 samples first."),
    ("or-fact-looker-embed", "fact", None, "looker",
     "Signed embed URLs are created by the Orchard API with the client's user attributes; sessions last 4 h. "
     "The embed secret is in AWS Secrets Manager orchard/looker-embed."),
    ("or-inc-looker-cache", "incident", None, "looker",
     "OR-449: clients saw yesterday's basket index until noon because the Looker datagroup checked "
     "MAX(price_date) every 24 h. Datagroup now triggers on the dbt_daily completion table."),
    ("or-status-superset", "status", None, "bi",
     "Superset evaluation parked in June: embedding with row-level security works, but the Looker contract "
     "runs to next March anyway."),
    ("or-ref-metric-defs", "reference", None, "metrics",
     "Metric definitions (basket index, promo depth, price change rate) are documented in "
     "docs/metrics.md and mirrored in dbt docs; change both together."),
    ("or-con-metric-changes", "constraint", None, "metrics",
     "A change to a published metric definition needs two weeks' notice to clients and a version bump "
     "(basket_index_v2) — never silently redefine."),
]

_OR_PAIRS: list[tuple[_Raw, _Raw]] = [
    (
        ("or-dec-scrapy", "decision", None, "scrapers",
         "Write scrapers with Scrapy; JS-heavy sites through scrapy-splash."),
        ("or-dec-playwright", "decision", "Playwright scrapers instead of Scrapy", "scrapers",
         "Moved scrapers from Scrapy + Splash to Playwright: 9 of 14 retailers render prices client side and "
         "Splash failed on their JS. Plain HTTP is still used where the retailer has a JSON API."),
    ),
    (
        ("or-dec-redshift", "decision", None, "warehouse",
         "Warehouse is Redshift (ra3.xlplus, 2 nodes)."),
        ("or-dec-snowflake", "decision", None, "warehouse snowflake",
         "Migrated the warehouse from Redshift to Snowflake: semi-structured JSON in VARIANT, per-warehouse "
         "scaling for dbt vs BI, and no vacuum/analyse chores."),
    ),
    (
        ("or-dec-airflow-ec2", "decision", None, "airflow",
         "Self-host Airflow on an EC2 instance with the docker-compose setup."),
        ("or-dec-airflow-mwaa", "decision", "Managed Airflow (MWAA)", "airflow",
         "Airflow moved from self-hosted EC2 to MWAA after two scheduler outages; nobody wanted to own "
         "upgrades."),
    ),
    (
        ("or-dec-matching-tfidf", "decision", None, "matching",
         "Match products across retailers with TF-IDF cosine on titles, threshold 0.8."),
        ("or-dec-matching-embeddings", "decision", None, "matching",
         "Cross-retailer product matching now uses sentence embeddings plus parsed size and brand; TF-IDF on "
         "titles merged 'Semi Skimmed Milk 2L' with '1L' too often (precision 81% vs 94% now)."),
    ),
    (
        ("or-dec-bi-metabase", "decision", None, "bi",
         "Dashboards in self-hosted Metabase."),
        ("or-dec-bi-looker", "decision", None, "bi looker",
         "Dashboards moved from Metabase to Looker for signed embedding with row-level filters per client; "
         "Metabase couldn't scope embedded dashboards to a client's retailers."),
    ),
    (
        ("or-dec-scrape-twice", "decision", None, "scrapers airflow",
         "Scrape every retailer twice a day, 03:00 and 15:00 UTC."),
        ("or-dec-scrape-daily", "decision", None, "scrapers airflow",
         "Scrapes go daily at 03:00 UTC only: the 15:00 run found price changes on fewer than 0.3% of products "
         "and doubled proxy spend."),
    ),
]

_OR_CHECKPOINTS: list[_Checkpoint] = [
    (
        "or-cp-store-level",
        "Store-level prices (OR-470): Tesco store selection by postcode works in the scraper.",
        ["Sample 40 stores per retailer (stratified by format: Extra, Superstore, Express) instead of all 3,000."],
        ["Sainsbury's needs a cookie from their store picker that expires every 20 min; refresh logic not "
         "written."],
        ["Setting the store through the URL parameter ?storeId=: ignored by Tesco's price API."],
        ["Add the store dimension to int_prices and a Looker filter; backfill from the first store-level run."],
    ),
    (
        "or-cp-snowflake-cost",
        "Snowflake cost cut (Q3 goal): down 9% so far by resizing warehouses.",
        ["BI_WH auto-suspend 60 s and TRANSFORM_WH only M during dbt_daily; the XS warehouse for CI."],
        ["fct_prices clustering costs ~600 credits/month in automatic clustering; need to decide whether to "
         "drop it."],
        ["Search optimisation service on fct_prices: cost more than it saved for our query mix."],
        ["Measure Looker query times without clustering on a zero-copy clone before deciding."],
    ),
    (
        "or-cp-dbt-upgrade",
        "dbt 1.8 upgrade (OR-475): project compiles; 14 tests renamed to the new unit test syntax.",
        [],
        ["dbt_utils.get_relations_by_pattern warning on Snowflake; wait for dbt_utils 1.2.1 or patch locally."],
        ["Upgrading dbt-snowflake alone first: 1.8 adapter needs dbt-core 1.8."],
        ["Run the full prod build on a clone warehouse and compare row counts of all marts."],
    ),
    (
        "or-cp-aldi-proxy",
        "Aldi scraping via residential proxies (OR-430 follow-up): success rate back to 97%.",
        ["Aldi is scraped at 0.5 req/s through the residential pool; cost ~£120/month."],
        [],
        ["Rotating user agents on datacenter IPs: challenge still served, it keys on the IP range."],
        ["Alert when residential proxy spend passes £1,000 in a month."],
    ),
    (
        "or-cp-ie-basket",
        "Irish retailers in the basket index: Dunnes and SuperValu matched for 41 of 48 lines.",
        ["Irish basket uses CSO HICP weights, not ONS CPI."],
        ["7 basket lines have no Irish equivalent (own-brand sizes differ); product team to pick substitutes."],
        [],
        ["Publish the IE index as beta in Looker once substitutes are chosen."],
    ),
    (
        "or-cp-matching-backlog",
        "Matching backlog (OR-478): auto-accept rule drafted; audit sample of 500 pairs drawn.",
        ["Auto-accept only when brand and total size match exactly and the score is above 0.92."],
        ["Audit result needed before enabling: reviewers have done 310 of 500."],
        ["Auto-accepting on score alone above 0.9: 7% of the audited pairs were different sizes."],
        ["Finish the audit, then enable the rule for non-own-brand products only."],
    ),
]

_OR_QUERIES: list[_Query] = [
    # paraphrase
    ("how fast are we allowed to hit a supermarket website", "paraphrase", ["or-con-robots"], []),
    ("can a scraper sign in with a Clubcard account to see member prices", "paraphrase",
     ["or-con-no-login"], []),
    ("how long do we keep the downloaded product pages", "paraphrase", ["or-fact-raw-retention"], []),
    ("how do we know which items at two supermarkets are the same product", "paraphrase",
     ["or-arch-product-matching"], []),
    ("six-pack cans were compared with a single can", "paraphrase", ["or-inc-size-parse"], []),
    ("what stops one client seeing another client's retailers in dashboards", "paraphrase",
     ["or-con-client-rls"], []),
    ("what's the monthly budget for warehouse compute", "paraphrase", ["or-con-warehouse-cost"], []),
    ("Irish prices counted in pounds by mistake", "paraphrase", ["or-inc-euro-prices"], []),
    # entity
    ("OR-412", "entity", ["or-inc-tesco-layout"], []),
    ("OrchardBot/2.0", "entity", ["or-con-robots"], []),
    ("SYSTEM$PIPE_STATUS", "entity", ["or-proc-snowpipe-stuck"], []),
    ("seeds/category_map.csv", "entity", ["or-fact-categories"], []),
    ("allow_full_refresh", "entity", ["or-inc-credit-spike"], []),
    ("orchard_resi zone", "entity", ["or-fact-proxies"], []),
    ("EcsRunTaskOperator", "entity", ["or-inc-mwaa-zombie"], []),
    ("'3 for £5'", "entity", ["or-arch-promotions"], []),
    # decision
    ("how many stores per retailer will store-level pricing sample", "decision",
     ["or-cp-store-level.d1"], []),
    ("which inflation weights does the Irish basket use", "decision", ["or-cp-ie-basket.d1"], []),
    ("which warehouse sizes did we settle on to save Snowflake credits", "decision",
     ["or-cp-snowflake-cost.d1"], []),
    ("is pandas OK in scraper code", "decision", ["or-pref-python"], []),
    ("how is the Aldi scrape run now and at what rate", "decision", ["or-cp-aldi-proxy.d1"], []),
    # superseded
    ("what library do the price scrapers use to load pages", "superseded",
     ["or-dec-playwright", "or-arch-overview"],
     ["or-dec-scrapy"]),
    ("which data warehouse does Orchard use", "superseded",
     ["or-dec-snowflake", "or-arch-overview"], ["or-dec-redshift"]),
    ("where does our Airflow run", "superseded",
     ["or-dec-airflow-mwaa", "or-fact-mwaa"], ["or-dec-airflow-ec2"]),
    ("how do we decide two grocery items are the same product — what algorithm", "superseded",
     ["or-dec-matching-embeddings", "or-arch-product-matching"], ["or-dec-matching-tfidf"]),
    ("what tool serves the clients' price dashboards", "superseded", ["or-dec-bi-looker", "or-fact-looker"],
     ["or-dec-bi-metabase"]),
    ("how often do price scrapes run each day", "superseded",
     ["or-dec-scrape-daily", "or-fact-schedule"], ["or-dec-scrape-twice"]),
    # failed
    ("did we try passing a store id in the URL to get local prices", "failed", ["or-cp-store-level.f1"], []),
    ("has search optimisation on the big prices table been tried", "failed", ["or-cp-snowflake-cost.f1"], []),
    ("would changing user agents get past the Aldi bot challenge", "failed", ["or-cp-aldi-proxy.f1"], []),
    ("can we bump only the Snowflake adapter before dbt core", "failed", ["or-cp-dbt-upgrade.f1"], []),
    # task
    ("what's left to do for local store prices", "task", ["or-cp-store-level", "or-cp-store-level.o1"], []),
    ("what's pending before the Irish basket index goes out", "task",
     ["or-cp-ie-basket", "or-cp-ie-basket.o1"],
     []),
    ("open decision about clustering on the prices fact table", "task", ["or-cp-snowflake-cost.o1"], []),
    ("what are this quarter's data platform goals", "task", ["or-status-q3"], []),
    ("what's next on moving to dbt 1.8", "task", ["or-cp-dbt-upgrade", "or-task-dbt-upgrade"], []),
    ("did we try calling a supermarket's internal API instead of a browser", "failed",
     ["or-fail-scraper-async-http"], []),
    ("has a language model been tried for deciding product matches", "failed", ["or-fail-matching-llm"], []),
    ("would a Snowpark python model be faster for match scores", "failed", ["or-fail-dbt-python-models"], []),
    ("when do product pairs get accepted without a human", "decision", ["or-cp-matching-backlog.d1"], []),
    ("what's holding up auto-accepting product matches", "task",
     ["or-cp-matching-backlog.o1", "or-cp-matching-backlog"], []),
]

# fmt: on


# =========================================================================================== assembly
_PROJECTS: list[tuple[str, list[_Raw], list[tuple[_Raw, _Raw]], list[_Checkpoint], list[_Query]]] = [
    ("fw", _FW, _FW_PAIRS, _FW_CHECKPOINTS, _FW_QUERIES),
    ("qs", _QS, _QS_PAIRS, _QS_CHECKPOINTS, _QS_QUERIES),
    ("em", _EM, _EM_PAIRS, _EM_CHECKPOINTS, _EM_QUERIES),
    ("cd", _CD, _CD_PAIRS, _CD_CHECKPOINTS, _CD_QUERIES),
    ("or", _OR, _OR_PAIRS, _OR_CHECKPOINTS, _OR_QUERIES),
]


def _remembered(project: str, raw: _Raw, status: str = "current", supersedes: str | None = None) -> AgentNote:
    key, note_type, title, tags, body = raw
    return AgentNote(
        key=key,
        type=note_type,
        status=status,
        title=title if title is not None else _derive_title(body),
        body=body,
        tags=tags.split(),
        supersedes=[supersedes] if supersedes else [],
        project=project,
        origin="remember",
        title_given=title is not None,
    )


def _checkpointed(project: str, checkpoint: _Checkpoint) -> list[AgentNote]:
    """The notes the checkpoint tool stores: the handoff, then one typed note per item."""
    key, summary, decisions, open_items, failed, next_actions = checkpoint
    sections = [
        ("Decisions", decisions),
        ("Open items", open_items),
        ("Failed approaches", failed),
        ("Next actions", next_actions),
    ]
    body = "\n\n".join(
        [summary]
        + [
            f"## {heading}\n" + "\n".join(f"- {item}" for item in items)
            for heading, items in sections
            if items
        ]
    )
    notes = [
        AgentNote(
            key=key,
            type="handoff",
            status="current",
            title="Handoff: " + _derive_title(summary, 70),
            body=body,
            tags=["handoff"],
            supersedes=[],
            project=project,
            origin="checkpoint",
            title_given=False,
        )
    ]
    for prefix, note_type, items in (
        ("d", "decision", decisions),
        ("o", "task", open_items),
        ("f", "failed_approach", failed),
    ):
        for number, item in enumerate(items, start=1):
            notes.append(
                AgentNote(
                    key=f"{key}.{prefix}{number}",
                    type=note_type,
                    status="current",
                    title=_derive_title(item),
                    body=item,
                    tags=[],
                    supersedes=[],
                    project=project,
                    origin="checkpoint",
                    title_given=False,
                )
            )
    return notes


def _build() -> tuple[list[AgentNote], list[AgentQuery]]:
    notes: list[AgentNote] = []
    queries: list[AgentQuery] = []
    for project, remembered, pairs, checkpoints, project_queries in _PROJECTS:
        notes += [_remembered(project, raw) for raw in remembered]
        for old, new in pairs:
            notes.append(_remembered(project, old, status="superseded"))
            notes.append(_remembered(project, new, supersedes=old[0]))
        for checkpoint in checkpoints:
            notes += _checkpointed(project, checkpoint)
        queries += [
            AgentQuery(query=text, kind=kind, relevant=relevant, outranked=outranked)
            for text, kind, relevant, outranked in project_queries
        ]
    return notes, queries


NOTES, QUERIES = _build()

_TAG = re.compile(r"^[a-z0-9][a-z0-9._:/+#-]*$")  # memory.inputs.TAG_PATTERN
_WORD = re.compile(r"[a-z0-9]+")
_QUERY_COUNTS = {"paraphrase": 40, "entity": 40, "decision": 30, "superseded": 27, "failed": 37, "task": 28}


def validate() -> None:
    """Assert the set's invariants."""
    keys = [n["key"] for n in NOTES]
    assert len(keys) == len(set(keys)), "duplicate note keys"
    assert 500 <= len(NOTES) <= 800, len(NOTES)
    by_key = {n["key"]: n for n in NOTES}
    assert {n["type"] for n in NOTES} == NOTE_TYPES, NOTE_TYPES ^ {n["type"] for n in NOTES}
    assert {n["project"] for n in NOTES} == {p[0] for p in _PROJECTS}
    for n in NOTES:
        assert n["key"].startswith(n["project"] + "-"), n["key"]
        assert n["type"] in NOTE_TYPES, n["key"]
        assert n["status"] in {"current", "superseded"}, n["key"]
        assert 0 < len(n["title"]) <= 300, n["key"]
        # Short notes: remembered notes and checkpoint items are a few sentences; a handoff holds a
        # checkpoint's summary and its lists.
        limit = 1_200 if n["type"] == "handoff" else 420
        assert 30 <= len(n["body"]) <= limit, (n["key"], len(n["body"]))
        assert len(n["tags"]) <= 20, n["key"]
        assert all(_TAG.fullmatch(t) for t in n["tags"]), n["key"]
        for old in n["supersedes"]:
            assert old in by_key, (n["key"], old)
            assert by_key[old]["status"] == "superseded", (n["key"], old)
            assert by_key[old]["project"] == n["project"], (n["key"], old)
            assert n["status"] == "current", n["key"]
    replaced = {old for n in NOTES for old in n["supersedes"]}
    superseded = {n["key"] for n in NOTES if n["status"] == "superseded"}
    assert superseded == replaced, superseded ^ replaced
    assert len(superseded) >= 25, len(superseded)
    derived = sum(not n["title_given"] for n in NOTES)
    assert 0.3 * len(NOTES) <= derived <= 0.9 * len(NOTES), derived
    assert sum(n["origin"] == "checkpoint" for n in NOTES) >= 80

    texts = [q["query"] for q in QUERIES]
    assert len(texts) == len(set(texts)), "duplicate queries"
    assert len(QUERIES) >= 170, len(QUERIES)
    counts = {kind: sum(q["kind"] == kind for q in QUERIES) for kind in KINDS}
    assert counts == _QUERY_COUNTS, counts
    for q in QUERIES:
        assert q["kind"] in KINDS, q["query"]
        assert 1 <= len(q["relevant"]) <= 3, q["query"]
        assert len(set(q["relevant"])) == len(q["relevant"]), q["query"]
        for key in q["relevant"] + q["outranked"]:
            assert key in by_key, (q["query"], key)
        assert len({by_key[key]["project"] for key in q["relevant"] + q["outranked"]}) == 1, q["query"]
        assert not set(q["relevant"]) & set(q["outranked"]), q["query"]
        relevant = [by_key[key] for key in q["relevant"]]
        assert all(n["status"] == "current" for n in relevant), q["query"]
        # Never a copy of the answer: the query text is not a substring of the note that answers it.
        assert not any(q["query"].lower() in (n["title"] + " " + n["body"]).lower() for n in relevant) or (
            q["kind"] == "entity"
        ), q["query"]
        if q["kind"] == "superseded":
            assert q["outranked"], q["query"]
            for old in q["outranked"]:
                assert by_key[old]["status"] == "superseded", (q["query"], old)
                assert any(old in n["supersedes"] for n in relevant), (q["query"], old)
        else:
            assert q["outranked"] == [], q["query"]
        if q["kind"] == "failed":
            assert any(n["type"] == "failed_approach" for n in relevant), q["query"]
        if q["kind"] == "task":
            assert any(n["type"] in {"task", "status", "handoff"} for n in relevant), q["query"]
        if q["kind"] == "entity":
            # The identifier is in the answer: at least one query word occurs in a relevant note.
            words = set(_WORD.findall(q["query"].lower()))
            assert any(
                words & set(_WORD.findall((n["title"] + " " + n["body"]).lower())) for n in relevant
            ), q["query"]
    for project in {p[0] for p in _PROJECTS}:
        kinds = {q["kind"] for q in QUERIES if q["relevant"][0].startswith(project + "-")}
        assert kinds == set(KINDS), (project, kinds)

"""Labelled retrieval set: multi-session developer–assistant transcripts, stored one message per note.

Ten conversations between a developer and a coding assistant about four fictional projects — Tally (a
mobile banking app: ledger service, React Native app, customer onboarding), Emberfall (a multiplayer
game server: netcode, matchmaking, persistence and anti-cheat), Silt (a soil-sensor data pipeline:
ingestion, warehouse) and Lintel (a Go CLI that lints SQL migrations: rules, releases). Each
conversation runs over several sessions; several sessions come back to the same component, so many
answers sit among similar messages.

An agent storing a transcript keeps every message as a "note": key `<conversation>-s<session>-<nn>`,
title `<conversation> · session <n> · <user|assistant>`, tags [project], body the message as written.
Query kinds, asked the way someone would ask weeks later:

- paraphrase: other words than the message;
- entity: hinges on an exact name, number, path or error code in the message;
- decision: "what did we decide about X" — the message where it was settled;
- changed: knowledge revised in a later session — the later message answers, the earlier is outranked;
- preference: the developer's stated likes and dislikes;
- temporal: "what were we doing in the session about Y" — the messages that carry that session's work.

FROZEN: written before any ranking was tuned on it; tests/retrieval/test_sets.py pins its SHA-256. Never
edit it to fit a ranking. Nothing runs at import time except building the lists; validate() checks them.
"""

from typing import NamedTuple

from labelled.retrieval.schema import LabelledNote, LabelledQuery

KINDS = ("paraphrase", "entity", "decision", "changed", "preference", "temporal")


class _Message(NamedTuple):
    role: str
    text: str
    anchor: str  # a name queries refer to; "" for messages no query points at


class _Ask(NamedTuple):
    kind: str
    query: str
    relevant: tuple[str, ...]  # anchors in the same conversation
    outranked: tuple[str, ...]


def dev(text: str, anchor: str = "") -> _Message:
    return _Message("user", text, anchor)


def ai(text: str, anchor: str = "") -> _Message:
    return _Message("assistant", text, anchor)


def ask(kind: str, query: str, *relevant: str, was: tuple[str, ...] = ()) -> _Ask:
    return _Ask(kind, query, relevant, was)


Session = list[_Message]


# ------------------------------------------------------------------ Tally: ledger service (Kotlin)
_TALLY_LEDGER: list[Session] = [
    [
        dev(
            "ok starting the ledger service for Tally today. Kotlin + Spring Boot 3, Postgres 15. I want proper double entry from day one, not a balance column we poke at. can you sketch the tables?",
            "s1-open",
        ),
        ai(
            "Sure. Minimal double-entry layout:\n\n- `accounts(id uuid pk, owner_id, currency char(3), kind text, created_at)`\n- `journal_transactions(id uuid pk, kind text, reference text, created_at)`\n- `ledger_entries(id bigserial, transaction_id fk, account_id fk, direction text check (direction in ('debit','credit')), amount bigint check (amount > 0))`\n\nEvery journal transaction must have entries whose debits equal its credits, per currency. I'd enforce that in the service and also with a deferred constraint trigger so a bug can't commit an unbalanced transaction.",
            "schema",
        ),
        dev(
            "amount as bigint? i was going to use numeric(19,4)",
        ),
        ai(
            "I'd keep money as integer minor units: cents for EUR, pence for GBP, and 0 decimals for JPY. `bigint` is exact, fast to sum, and maps cleanly to Kotlin `Long`. With numeric(19,4) you end up with values like 10.0050 that are not representable as a real payment and someone has to decide where to round. Store the currency's exponent in a small `currencies` table (EUR=2, JPY=0, KWD=3) and convert only at the edges (API + display).",
            "minor-units-why",
        ),
        dev(
            "fine, minor units it is. bigint, exponent table. write that down as decided",
            "minor-units",
        ),
        ai(
            "Noted: amounts are `bigint` minor units everywhere in the ledger, exponent per currency from `currencies`. I'll add a `Money(amountMinor: Long, currency: Currency)` value class in `ledger-core/src/main/kotlin/app/tally/ledger/Money.kt` so nobody passes a raw Long around.",
        ),
        dev(
            "also for data access — please no Hibernate. I've been burned by lazy loading and dirty checking too many times. jOOQ or plain JDBC templates, your pick",
            "pref-no-orm",
        ),
        ai(
            "jOOQ then: generated, type-safe SQL and no session magic. I'll set up the Gradle jOOQ codegen against a Flyway-migrated Testcontainers Postgres so the generated classes always match `V1__ledger.sql`. Repositories will be small classes taking a `DSLContext`.",
        ),
        dev(
            "how do we get balances fast? summing ledger_entries every time wont scale",
        ),
        ai(
            "Keep a `account_balances(account_id pk, balance_minor bigint, version bigint)` row per account and update it in the same DB transaction that inserts the entries. Reads hit that row; a nightly `BalanceReconciliationJob` re-sums `ledger_entries` and alerts if any account differs. The `version` column also gives us optimistic locking if we ever need it.",
            "balances",
        ),
    ],
    [
        dev(
            "got a nasty one. QA tapped 'send' on a slow connection, app timed out (504 from the gateway), retried, and the transfer went through twice. €40 twice to the same person",
            "s2-open",
        ),
        ai(
            "Classic retry-after-timeout. The first request committed but the response never reached the app. We need idempotency on `POST /v1/transfers`: the app generates a UUID per transfer attempt and sends it as `Idempotency-Key`; the server stores the key with the response and returns the stored response on a repeat instead of executing again.",
        ),
        dev(
            'we do have a unique constraint on client_ref, i thought that covered it? logs show `DuplicateKeyException: duplicate key value violates unique constraint "uq_transfer_client_ref"` on some retries',
        ),
        ai(
            "It covers the case where both requests reach the insert, but the app generated a new `client_ref` on retry (it's created in `TransferViewModel.submit()`, not when the screen opens), so the second attempt looked like a brand-new transfer. And when the ref *was* reused, the user got a 500 from that `DuplicateKeyException` instead of the original result. Both go away with a proper idempotency table.",
            "dup-key",
        ),
        dev(
            "ok design it. where do keys live and how long",
        ),
        ai(
            "Table `idempotency_keys(key uuid, account_id uuid, request_hash bytea, status text, response_code int, response_body jsonb, created_at timestamptz, primary key (account_id, key))`. Flow: insert with status `in_progress` in its own transaction; if it conflicts, read the row — `in_progress` returns 409 `transfer_in_progress`, `completed` replays the stored response, and a different `request_hash` returns 422 `idempotency_key_reused`. Keys expire after 24 hours; a cleanup job deletes older rows every hour.",
            "idem-24h",
        ),
        dev(
            "24h sounds fine. keys scoped per account not global, good",
        ),
        ai(
            "Scoping by account also means a leaked key from one customer can't be used to probe another's transfers. I'll put the filter in `IdempotencyFilter.kt` so every mutating endpoint under `/v1/transfers` and `/v1/payees` gets it, not just transfers.",
        ),
        dev(
            "and please write the test with a real postgres, not a mocked repository. mocks of the db have lied to me before",
            "pref-testcontainers",
        ),
        ai(
            "Agreed — `IdempotencyIT` will run against the Testcontainers Postgres we already use for jOOQ codegen: two coroutines fire the same key concurrently and we assert exactly one `journal_transactions` row and two identical responses.",
        ),
    ],
    [
        dev(
            "prod alert overnight: `ERROR: deadlock detected` SQLSTATE 40P01 in transfer-worker, 14 of them between 01:10 and 01:40. looks like the salary batch from Northwind payroll",
            "s3-open",
        ),
        ai(
            "A payroll batch is exactly the pattern: transfer A→B locks A's balance row then B's, while a refund B→A locks B then A. Each waits for the other and Postgres kills one. Can you paste the `DETAIL` lines from the log? They show which two `account_balances` rows were involved.",
        ),
        dev(
            "DETAIL: Process 48211 waits for ShareLock on transaction 9917342; blocked by process 48190. Process 48190 waits for ShareLock on transaction 9917339; blocked by process 48211. both on account_balances",
        ),
        ai(
            "Confirmed, two transactions updating the same pair of balance rows in opposite order. Fix: in `PostingService.post()`, collect every account id the journal transaction touches, sort them ascending (UUID byte order) and `SELECT ... FOR UPDATE` them in that order before writing any entry. Consistent lock order means the cycle can't form.",
            "lock-order",
        ),
        dev(
            "do we also retry? i dont want the payroll customer to see failures",
        ),
        ai(
            "Yes, as a safety net: retry serialization failures (40001) and deadlocks (40P01) up to 3 times with 20–80 ms jittered backoff, in `TransactionRetry.kt`. With ordered locking deadlocks should be near zero, so if the retry counter `ledger_tx_retries_total` climbs we'll know something bypasses the ordering.",
            "retry",
        ),
        dev(
            "ok ship both. lock ordering is the real fix, retry is just belt and braces",
            "lock-order-decided",
        ),
        ai(
            "Done in branch `fix/posting-lock-order`. I also added `DeadlockIT`, which runs 200 opposite-direction transfers between two accounts on 8 threads; before the change it reproduced 40P01 within a second, now it passes consistently.",
        ),
        dev(
            "nice. btw payroll runs are ~3k transfers in a burst, will the single worker keep up",
        ),
        ai(
            "At the measured ~9 ms per posting a single worker does ~110/s, so 3,000 drain in under 30 s. That's fine for payroll; if we need more, partition the queue by source account so ordering per account is kept while workers run in parallel.",
            "throughput",
        ),
    ],
    [
        dev(
            "next: FX. users can hold GBP and EUR pockets and move money between them. rate comes from our provider Quanta FX. how do we round the converted amount?",
            "s4-open",
        ),
        ai(
            "Quanta quotes rates with 6 decimals. I'd convert in `BigDecimal`: `amountMinor * rate`, then round to the target currency's minor unit. For rounding mode I'd suggest HALF_EVEN (banker's rounding) so systematic conversions don't drift upward over millions of operations, and keep the unrounded result in the entry metadata for audit.",
        ),
        dev(
            "banker's rounding ok. go with HALF_EVEN for conversions",
            "rounding-half-even",
        ),
        ai(
            "Implemented in `FxConverter.convert(from: Money, to: Currency, rate: BigDecimal)` with `RoundingMode.HALF_EVEN`. The spread we earn is booked as a third entry to the `fx_revenue` internal account so the journal transaction still balances per currency.",
        ),
        dev(
            "how long is a quoted rate valid? the app shows it before the user confirms",
        ),
        ai(
            "Quanta guarantees a quote for 30 seconds (`quote_id`, `expires_at`). The app shows a countdown and the server rejects a confirm with an expired quote as `422 fx_quote_expired`, and the app refetches. We never re-price silently.",
            "quote-30s",
        ),
        dev(
            "sounds good. side note, the ktlint config is driving me nuts with the trailing comma rule, can we turn that one off",
        ),
        ai(
            "Disabled `trailing-comma-on-call-site` and `trailing-comma-on-declaration-site` in `.editorconfig` (`ktlint_standard_trailing-comma-on-call-site = disabled`). Everything else in the standard ruleset stays on.",
        ),
        dev(
            "also I like small commits with conventional commit messages, fix: feat: etc. keep doing that pls",
            "pref-commits",
        ),
        ai(
            "Will do — one logical change per commit with `feat(fx): ...`, `fix(posting): ...` prefixes. Today's are `feat(fx): convert with quoted rate` and `chore(lint): relax trailing comma rules`.",
        ),
    ],
    [
        dev(
            "two things from the support review. 1) we still see duplicate transfer complaints, always when the app was backgrounded for a long time and resumed. 2) compliance says customer-facing conversions must round half up, not banker's",
            "s5-open",
        ),
        ai(
            "For (1): the app persists pending transfers and resubmits with the same `Idempotency-Key` on resume, but if the phone was in a drawer over the weekend the key had already expired after 24h, so the server treated it as new. For (2): that's a regulatory requirement so it overrides the drift argument.",
        ),
        dev(
            "how long do we need to keep keys then",
        ),
        ai(
            "Support tickets show resumes up to ~60 hours later. I'd extend the retention to 72 hours and have the app drop a pending transfer older than 48h instead of resubmitting it, so the key always outlives the retry window. Storage is tiny: ~40k keys/day × ~1 KB.",
        ),
        dev(
            "do it, 72h retention for idempotency keys from now on",
            "idem-72h",
        ),
        ai(
            "Changed `IDEMPOTENCY_TTL` to `Duration.ofHours(72)` in `application.yml` and the hourly cleanup uses it; the app's `PendingTransferStore` now discards entries older than 48 h. Migration not needed, only the cleanup cutoff moves.",
        ),
        dev(
            "and the rounding. switch customer conversions to HALF_UP. internal treasury rebalancing can stay whatever",
        ),
        ai(
            "Changed `FxConverter` to take a `RoundingPolicy`: customer conversions now use `RoundingMode.HALF_UP` (compliance requirement), internal treasury moves keep HALF_EVEN. Added a table-driven test with the compliance team's 12 examples, e.g. €10.005 → €10.01.",
            "rounding-half-up",
        ),
        dev(
            "last thing, monthly statements. when does that job run?",
        ),
        ai(
            "`StatementJob` runs on the 1st of each month at 02:30 Europe/Berlin, after the nightly reconciliation at 01:00, and writes PDFs to the `tally-statements` bucket under `yyyy/MM/<account_id>.pdf`. It skips accounts whose reconciliation flagged a mismatch and pages the on-call.",
            "statements",
        ),
    ],
    [
        dev(
            "reconciliation job flagged 3 accounts last night, diff of exactly -1999 minor units each. what happened",
            "s6-open",
        ),
        ai(
            "All three were touched by the manual fix ops ran on Tuesday for the card processor's chargebacks: someone ran an `UPDATE ledger_entries SET amount = ...` in psql to correct three refunds of €19.99, but didn't update `account_balances`. So the stored balance and the re-summed entries now disagree by 1999 cents each.",
            "recon-cause",
        ),
        dev(
            "sigh. how should ops have done it",
        ),
        ai(
            "By posting a correcting journal transaction: a reversal of the wrong entries and a new posting with the right amounts, through `PostingService`, so balances, audit trail and statements stay consistent. Editing an entry in place destroys the history a regulator will ask for.",
        ),
        dev(
            "make it a hard rule then. entries are append only, corrections are reversals. and enforce it in the db",
            "append-only",
        ),
        ai(
            "Added migration `V14__ledger_append_only.sql`: a trigger rejecting `UPDATE` and `DELETE` on `ledger_entries` and `journal_transactions` (`ledger entries are append-only; post a reversal`), and the application role loses UPDATE/DELETE grants on both tables. An admin endpoint `POST /internal/journal/{id}/reverse` creates the reversal for ops.",
            "append-only-trigger",
        ),
        dev(
            "and fix the 3 accounts",
        ),
        ai(
            "Posted reversals for the three edited entries and re-posted the intended amounts, then ran `BalanceReconciliationJob --accounts=...` manually: all three now reconcile. I wrote up what happened in the ops channel with a link to the new reversal endpoint.",
        ),
        dev(
            "chargebacks in general, how do they hit the ledger",
        ),
        ai(
            "A chargeback notification from the card processor posts debit `customer pocket` / credit `chargeback_receivable`; if we win the dispute, the reverse. If the pocket would go negative we still post it (the customer owes us) and flag the account `negative_balance`, because refusing to book a real-world event makes the ledger lie.",
            "chargebacks",
        ),
    ],
]

_TALLY_LEDGER_ASKS: list[_Ask] = [
    ask(
        "paraphrase",
        "how are money values represented in the ledger database",
        "minor-units-why",
        "minor-units",
    ),
    ask("paraphrase", "what protects against an unbalanced journal being committed", "schema"),
    ask("paraphrase", "how do we avoid re-summing every entry to show an account's balance", "balances"),
    ask("paraphrase", "why did a retried send of forty euros move the money twice", "s2-open", "dup-key"),
    ask(
        "paraphrase",
        "how long is a currency conversion offer honoured before the customer must refresh it",
        "quote-30s",
    ),
    ask("paraphrase", "could the single posting worker cope with a burst of salary payments", "throughput"),
    ask("entity", "uq_transfer_client_ref DuplicateKeyException", "dup-key"),
    ask("entity", "SQLSTATE 40P01 transfer-worker", "s3-open", "lock-order"),
    ask("entity", "ledger_tx_retries_total", "retry"),
    ask("entity", "422 fx_quote_expired", "quote-30s"),
    ask("entity", "StatementJob 02:30 Europe/Berlin", "statements"),
    ask("entity", "tally-statements bucket path", "statements"),
    ask(
        "decision",
        "what did we settle on for the order in which posting takes row locks",
        "lock-order",
        "lock-order-decided",
    ),
    ask(
        "decision",
        "did we decide to use numeric or integers for amounts in the ledger",
        "minor-units",
        "minor-units-why",
    ),
    ask(
        "decision",
        "what was decided about retrying transactions that Postgres aborts",
        "retry",
        "lock-order-decided",
    ),
    ask("changed", "how long are transfer idempotency keys retained", "idem-72h", was=("idem-24h",)),
    ask(
        "changed",
        "which rounding mode applies when a customer converts pounds to euros",
        "rounding-half-up",
        was=("rounding-half-even",),
    ),
    ask("preference", "what does the developer think about Hibernate for the ledger", "pref-no-orm"),
    ask("preference", "should ledger integration tests mock the repository", "pref-testcontainers"),
    ask("preference", "how does the developer want commits written", "pref-commits"),
    ask(
        "temporal",
        "what were we doing in the session when payroll transfers hit deadlocks overnight",
        "s3-open",
        "lock-order",
    ),
    ask(
        "temporal",
        "what did we work on in the session where the support review came back",
        "s5-open",
        "idem-72h",
        "rounding-half-up",
    ),
    ask(
        "paraphrase",
        "why did three customers' stored balances disagree with their summed entries by €19.99",
        "recon-cause",
    ),
    ask(
        "decision",
        "can ops correct a wrong ledger entry by editing it in place",
        "append-only",
        "append-only-trigger",
    ),
    ask("entity", "V14__ledger_append_only.sql", "append-only-trigger"),
    ask("paraphrase", "what gets booked when a cardholder disputes a card payment", "chargebacks"),
    ask(
        "temporal",
        "what were we doing in the session when the nightly balance check flagged accounts",
        "s6-open",
        "recon-cause",
    ),
]


# ------------------------------------------------------------------ Tally: React Native app
_TALLY_APP: list[Session] = [
    [
        dev(
            "app side today. login with Face ID / fingerprint for Tally, RN 0.73, TypeScript. what lib do we use and where does the refresh token go",
            "s1-open",
        ),
        ai(
            "`react-native-keychain` covers both platforms: on iOS it stores in the Keychain with `accessControl: BIOMETRY_CURRENT_SET`, on Android it uses the Keystore with a biometric-bound key. The refresh token goes in there and only there — never AsyncStorage, never MMKV, never Redux state persisted to disk. The access token (15 min) lives in memory only.",
            "token-storage",
        ),
        dev(
            "agreed, refresh token only in keychain/keystore. make that a rule",
            "token-rule",
        ),
        ai(
            "Added it to `docs/security.md` and an ESLint `no-restricted-imports` rule that blocks importing `@react-native-async-storage/async-storage` from anything under `src/auth/`. `AuthRepository.saveSession()` is the only writer.",
        ),
        dev(
            "fallback when biometrics fail? bank wants a PIN",
        ),
        ai(
            "6-digit app PIN, verified server-side (`POST /v1/auth/pin`) — we store nothing about it on the device except a salted attempt counter. After 5 wrong tries the session is revoked and the user has to log in with password + SMS OTP again. Biometric enrolment change (`BIOMETRY_CURRENT_SET` invalidates the key) also forces the PIN.",
            "pin",
        ),
        dev(
            "and please keep tsconfig strict, noImplicitAny, no `any` casts sneaking in. I'd rather write a type guard",
            "pref-strict-ts",
        ),
        ai(
            "`strict: true`, `noUncheckedIndexedAccess: true`, and `@typescript-eslint/no-explicit-any` as an error. For the Keychain result I wrote `isStoredSession(value: unknown): value is StoredSession` instead of casting.",
        ),
        dev(
            "what happens if the user has no biometrics enrolled at all",
        ),
        ai(
            "`Keychain.getSupportedBiometryType()` returns null, so we skip the biometric prompt and go straight to the PIN screen; the refresh token is then stored with `ACCESS_CONTROL.DEVICE_PASSCODE` instead, which still needs the device unlocked.",
        ),
    ],
    [
        dev(
            "crashlytics: top crash in 2.3.0, `java.lang.IllegalStateException: Fragment not attached to an activity` right when the biometric prompt opens. mostly Samsung Galaxy A52, Android 12",
            "s2-open",
        ),
        ai(
            "That comes from `androidx.biometric` being handed an activity that isn't a `FragmentActivity` — RN's `MainActivity` extends `ReactActivity`, which is fine, but our splash screen library starts the prompt from `SplashActivity` during the transition on some Samsung builds. The prompt's fragment is attached to an activity that is finishing.",
        ),
        dev(
            "why only samsung?",
        ),
        ai(
            "One UI 4 delays the splash exit animation longer than stock Android, so the window where `SplashActivity` is finishing but still current is ~300 ms instead of ~50 ms. Our `useBiometricLogin` hook fires on mount, which lands in that window.",
        ),
        dev(
            "fix?",
        ),
        ai(
            "Only trigger the prompt once `AppState` is `active` and the navigation container's `onReady` has fired, i.e. after `MainActivity` is in front. In `useBiometricLogin.ts` I gate on `navigationRef.isReady()`. Also bumped `androidx.biometric` to 1.2.0-alpha05 which checks `isAdded()` before showing.",
            "fragment-fix",
        ),
        dev(
            "ship as 2.3.1 hotfix, android only",
            "hotfix-231",
        ),
        ai(
            "Built `2.3.1 (build 231)` for Android only, staged rollout at 20%. iOS stays on 2.3.0 because it never had the crash. Crashlytics filter: `issue_id=7f3c...` so we can watch it drop.",
            "hotfix-build",
        ),
        dev(
            "good. 20% rollout then full tomorrow if the crash-free rate holds above 99.5",
        ),
        ai(
            "Noted: full rollout tomorrow if crash-free users ≥ 99.5% on 2.3.1. I'll check the Play Console vitals in the morning session.",
        ),
    ],
    [
        dev(
            "product wants an 'offline mode'. what's realistic for a bank app? people in the tube want to see their balance",
            "s3-open",
        ),
        ai(
            "Showing cached data is realistic; moving money offline isn't — we can't authorise a payment without the server, and queuing payments to send later creates the double-send problem we just fixed on the ledger side, plus a confusing UX when a queued payment fails hours later.",
        ),
        dev(
            "yeah, no offline payments. read only offline. balance + last 50 transactions",
            "offline-readonly",
        ),
        ai(
            "Plan: cache balance and the latest 50 transactions per pocket in `react-native-mmkv` with encryption enabled (key from the Keystore/Keychain, not hard-coded). The UI shows a banner 'Offline · balance as of 14:32' from the cached `fetchedAt`, and all money-moving buttons are disabled with an explanation.",
            "offline-cache",
        ),
        dev(
            "does mmkv encryption actually hold up? it's just AES-CFB iirc",
        ),
        ai(
            "It's AES-CFB-128 with a key we supply, so confidentiality depends on keeping that key in the Keychain/Keystore — which we do. It gives no integrity protection, but the cache is display-only and gets replaced on the next online fetch, so tampering would only fool the local user. The refresh token still never goes there.",
        ),
        dev(
            "and clear it on logout obviously",
        ),
        ai(
            "`SessionManager.logout()` now calls `offlineCache.clearAll()` and deletes the MMKV encryption key, and the cache is also cleared when the PIN lockout revokes the session.",
        ),
        dev(
            "for state management we're on redux toolkit for all of this?",
        ),
        ai(
            "Yes, the offline slice is `offlineSlice.ts` in Redux Toolkit with RTK Query for fetching; MMKV is wired as the persistence layer for that one slice only.",
            "state-redux",
        ),
    ],
    [
        dev(
            "honestly redux is too much ceremony for this app. every small feature is a slice + selectors + thunks. can we move to zustand? rtk query can stay for server data or we swap to tanstack query",
            "s4-open",
        ),
        ai(
            "That's a reasonable split: TanStack Query for server state (balances, transactions, payees) and Zustand for the little client state we have (onboarding step, feature toggles, the offline banner). It removes most of `src/store/` and the MMKV persistence moves to TanStack's `persistQueryClient` with an MMKV storage adapter.",
        ),
        dev(
            "do it. zustand + tanstack query, drop redux entirely",
            "state-zustand",
        ),
        ai(
            "Migrated in `refactor/state-zustand`: 14 slices removed, `useSessionStore`, `useUiStore` added; queries keyed `['balance', pocketId]` and `['transactions', pocketId, page]`. Bundle size went from 9.8 MB to 9.3 MB (Hermes bytecode).",
        ),
        dev(
            "push notifications next. card payment pushes arrive late on iOS sometimes, like minutes",
        ),
        ai(
            "Are those silent pushes (`content-available: 1`) that the app turns into a local notification? iOS throttles background pushes heavily — low power mode or a rarely used app can delay them by minutes or drop them. Visible alert pushes with `apns-priority: 10` are delivered immediately.",
        ),
        dev(
            "yes they're silent ones, we format the text on device to localise the merchant name",
        ),
        ai(
            "Then switch card-payment pushes to visible alerts with `mutable-content: 1` and do the localisation in a Notification Service Extension (`TallyNotificationService`), which iOS runs before display and doesn't throttle the same way. Silent pushes remain only for background balance refresh.",
            "push-nse",
        ),
        dev(
            "ok. android is fine with FCM high priority data messages?",
        ),
        ai(
            "Yes, FCM high-priority data messages are delivered promptly as long as the app shows a notification for each one; if it doesn't, Android deprioritises future messages. Our handler always posts one, so keep `priority: high` there.",
        ),
    ],
    [
        dev(
            "apple rejected 2.5.0. Guideline 5.1.1(v) — apps that support account creation must let users delete their account in the app. we only had 'email support'",
            "s5-open",
        ),
        ai(
            "Since June 2022 that's enforced. For a bank we can't delete the ledger history (retention law), but Apple accepts 'initiate deletion in app' where the account is closed and personal data removed once legal retention ends. We need a visible path in Settings → Account → Close account, not buried in a web link.",
        ),
        dev(
            "what does the flow do exactly",
        ),
        ai(
            "1) explain consequences and require a zero balance (or a payout IBAN), 2) re-authenticate with PIN/biometrics, 3) `POST /v1/customers/me/closure`, 4) sign out and wipe local storage. The backend marks the customer `closing`, blocks cards, and schedules data erasure after the 10-year retention. Reply to App Review quoting 5.1.1(v) with a screen recording.",
            "closure-flow",
        ),
        dev(
            "ok. also how do we get fixes out faster than app review? someone mentioned codepush",
        ),
        ai(
            "CodePush (App Center) is being retired in March 2025, so I wouldn't adopt it now. Expo's EAS Update works with bare RN apps via `expo-updates`, but for a banking app I'd be careful: over-the-air JS updates are allowed for bug fixes but changes to the app's purpose aren't, and security review will want signed updates.",
        ),
        dev(
            "let's not do OTA at all for now. store releases only, weekly train",
            "no-ota",
        ),
        ai(
            "Recorded: no over-the-air updates; weekly release train cut on Tuesdays, submitted Wednesday, phased release over 7 days on iOS and staged 10/50/100 on Android.",
            "release-train",
        ),
        dev(
            "cool. i prefer we dont add more native deps unless really needed btw, every one is pain on upgrades",
            "pref-native-deps",
        ),
        ai(
            "Understood — before adding a native module I'll check if a JS-only library or an existing dependency covers it, and call it out in the PR description when a native dependency is unavoidable.",
        ),
    ],
    [
        dev(
            "accessibility audit results are in. 41 issues, mostly missing labels on icon buttons and the PIN pad isn't usable with VoiceOver",
            "s6-open",
        ),
        ai(
            "The icon buttons (`IconButton` in `src/ui/`) take no `accessibilityLabel` prop today. I'll make the prop required in its TypeScript type, so missing labels become compile errors rather than audit findings. For the PIN pad: each digit needs `accessibilityRole=\"button\"` and the dots need a live region announcing '3 of 6 digits entered', never the digits themselves.",
            "a11y-labels",
        ),
        dev(
            "required prop is nice. every interactive element must have a label, I want that as a team rule",
            "pref-a11y",
        ),
        ai(
            "Added `eslint-plugin-react-native-a11y` with `has-valid-accessibility-descriptors` as an error, and the required `accessibilityLabel` on `IconButton`, `Tile` and `ListRow`. 38 of the 41 findings are fixed by that alone.",
        ),
        dev(
            "also biometric again, pixel 8 users on android 14 get 'no biometrics enrolled' even though they have a fingerprint",
        ),
        ai(
            "Pixel 8 face unlock is Class 2 (weak) biometrics, and we ask for `BIOMETRIC_STRONG`. Users who enrolled only their face get `BIOMETRIC_ERROR_NONE_ENROLLED` (code 11) from `canAuthenticate`, and our message wrongly says no fingerprint. Those who also have a fingerprint hit a different bug: we check before the keystore key exists. The fix is to check `BIOMETRIC_STRONG` only, explain 'face unlock isn't secure enough for banking, use fingerprint or PIN', and create the key first.",
            "pixel-weak",
        ),
        dev(
            "ok ship in next train",
        ),
        ai(
            "Merged for Tuesday's release train; the explanation text is in `i18n/en.json` under `biometrics.weakOnly` and translated for DE and ES by the localisation vendor.",
        ),
    ],
]

_TALLY_APP_ASKS: list[_Ask] = [
    ask(
        "paraphrase",
        "where on the phone is the long-lived login credential kept",
        "token-storage",
        "token-rule",
    ),
    ask("paraphrase", "what happens after someone types the wrong unlock code too many times", "pin"),
    ask(
        "paraphrase",
        "why did the biometric dialog crash only on certain Samsung phones",
        "s2-open",
        "fragment-fix",
    ),
    ask(
        "paraphrase",
        "what can people see in the banking app when they have no signal underground",
        "offline-readonly",
        "offline-cache",
    ),
    ask("paraphrase", "why were card purchase alerts showing up minutes late on iPhones", "push-nse"),
    ask("paraphrase", "what does the in-app flow for shutting down a customer's account do", "closure-flow"),
    ask("entity", "java.lang.IllegalStateException Fragment not attached", "s2-open", "fragment-fix"),
    ask("entity", "BIOMETRY_CURRENT_SET", "token-storage", "pin"),
    ask("entity", "Guideline 5.1.1(v)", "s5-open", "closure-flow"),
    ask("entity", "TallyNotificationService mutable-content", "push-nse"),
    ask("entity", "POST /v1/auth/pin", "pin"),
    ask("entity", "build 231 staged rollout", "hotfix-build"),
    ask("decision", "what did we decide about making payments without a connection", "offline-readonly"),
    ask("decision", "what was the decision on over-the-air JavaScript updates", "no-ota"),
    ask(
        "decision",
        "what's the rule about where the refresh token may be stored",
        "token-rule",
        "token-storage",
    ),
    ask("changed", "which library holds the app's client-side state", "state-zustand", was=("state-redux",)),
    ask("preference", "how does the developer feel about the any type in TypeScript", "pref-strict-ts"),
    ask("preference", "what's the developer's view on adding native modules to the app", "pref-native-deps"),
    ask(
        "temporal",
        "what were we doing in the session after the App Store rejection",
        "s5-open",
        "closure-flow",
    ),
    ask(
        "temporal",
        "what did we work on in the session about offline support",
        "s3-open",
        "offline-readonly",
        "offline-cache",
    ),
    ask("entity", "BIOMETRIC_ERROR_NONE_ENROLLED Pixel 8", "pixel-weak"),
    ask("preference", "what rule did the developer set for screen reader support", "pref-a11y"),
    ask("paraphrase", "how do we stop icon-only buttons shipping without a spoken name", "a11y-labels"),
]


# ------------------------------------------------------------------ Tally: customer onboarding / KYC
_TALLY_ONBOARDING: list[Session] = [
    [
        dev(
            "onboarding service. we signed with IdentiQ for ID document + selfie checks. they call us back via webhook when a check finishes. how do we verify the webhook is really from them",
            "s1-open",
        ),
        ai(
            "IdentiQ signs each webhook with HMAC-SHA256 over the raw request body using the shared secret from their dashboard, sent as `X-IdentiQ-Signature: t=1718000000,v1=<hex>`. Verify by recomputing `HMAC(secret, t + '.' + rawBody)`, compare with a constant-time comparison, and reject if `t` is older than 5 minutes to stop replays. Important: compute it over the raw bytes before any JSON parsing.",
            "hmac",
        ),
        dev(
            "we're in kotlin too, spring webflux. raw body is annoying there",
        ),
        ai(
            "Read it as `ByteArray` via `@RequestBody body: ByteArray` in `IdentiqWebhookController`, verify, then parse with Jackson ourselves. Don't let Spring bind to a DTO first — it re-serialises and the signature won't match on whitespace.",
        ),
        dev(
            "what states does a customer go through",
        ),
        ai(
            "Proposed state machine in `OnboardingState`: `STARTED → DOCUMENTS_SUBMITTED → CHECK_PENDING → (APPROVED | REJECTED | MANUAL_REVIEW)`, and `MANUAL_REVIEW → APPROVED | REJECTED` by an ops agent. Only `APPROVED` can open accounts in the ledger. Transitions are written to `onboarding_events` so we have an audit trail for the regulator.",
            "states",
        ),
        dev(
            "webhooks can come twice or out of order right?",
        ),
        ai(
            "Yes, IdentiQ retries for up to 24 h and doesn't guarantee ordering. Store `event_id` with a unique constraint and ignore duplicates; apply an event only if it moves the state forward (a late `check.pending` after `check.approved` is dropped). The handler always answers 200 once the event is stored, even if ignored, otherwise they keep retrying.",
            "webhook-dedupe",
        ),
        dev(
            "good. i want the secret in vault not env vars btw",
            "pref-vault",
        ),
        ai(
            "The signing secret is read from Vault at `secret/tally/onboarding/identiq` via Spring Cloud Vault and rotated by re-reading on `SIGHUP`; nothing in `application.yml` or the Helm values.",
        ),
    ],
    [
        dev(
            "sanctions screening. we must screen every new customer against the EU consolidated list and UK HMT list before approving. thoughts?",
            "s2-open",
        ),
        ai(
            "Two options: an API vendor (ComplyAdvantage-style) or download the lists ourselves and fuzzy-match. The lists themselves are public XML/CSV and small (~15k entries). The hard part is matching: transliterations, name order, missing middle names. A vendor gives tuned matching and an audit trail, which examiners like.",
        ),
        dev(
            "budget says in-house for now. how do we match",
        ),
        ai(
            "Normalise names (NFKD, strip diacritics, lowercase, drop honorifics), then score with Jaro-Winkler on tokens sorted alphabetically plus date-of-birth match. Threshold 0.92 → automatic hit to `MANUAL_REVIEW`; 0.85–0.92 → review queue with lower priority; below → clear. Lists refresh daily at 06:00 UTC from the official URLs into `sanctions_entries`.",
            "sanctions-match",
        ),
        dev(
            "0.92 feels arbitrary",
        ),
        ai(
            "It is a starting point. I ran it against the 2,400 test identities from compliance: 0.92 gave 0 missed true hits and 31 false positives; 0.95 missed 2 true hits (both transliterated Cyrillic names). We should log every score so compliance can retune with real data.",
        ),
        dev(
            "ok keep 0.92 and log scores. also re-screen existing customers when the list changes?",
            "sanctions-threshold",
        ),
        ai(
            "Yes, that's required (ongoing monitoring). The daily refresh diffs the list; for every new or changed entry we re-screen all approved customers against just that entry, which is cheap. Hits freeze outgoing payments via `CustomerRestriction.SANCTIONS_REVIEW` until an agent clears them.",
            "rescreen",
        ),
        dev(
            "nice. that freeze — does it block incoming money too?",
        ),
        ai(
            "No: incoming credits are still accepted (rejecting them could tip off the person), outgoing transfers and card payments are declined with a generic message. That's what the compliance policy section 4.3 asks for.",
        ),
    ],
    [
        dev(
            "UK launch prep. address step: we validate postcodes with a regex now and it's rejecting real ones. e.g. 'EC1A 1BB' passes but 'W1A 0AX' fails??",
            "s3-open",
        ),
        ai(
            "Our current regex in `AddressValidator.kt` is `^[A-Z]{2}[0-9]{1,2} ?[0-9][A-Z]{2}$` — it requires two letters in the outward code, so single-letter areas like W, E, N, B, G, L, M, S fail. Use the full pattern that allows `A9`, `A99`, `AA9`, `AA99`, `A9A`, `AA9A` outward codes, or better, normalise (uppercase, single space) and look it up.",
            "postcode-regex",
        ),
        dev(
            "look up against what",
        ),
        ai(
            "Royal Mail PAF via a provider like getAddress or Ideal Postcodes — it also gives the user a picker of addresses so they don't type them. Typical cost ~2–3p per lookup. The regex then only guards obvious junk before calling out.",
        ),
        dev(
            "let's do the lookup with Ideal Postcodes, and keep the fixed regex as a prefilter",
            "postcode-lookup",
        ),
        ai(
            "Wired `IdealPostcodesClient` with a 2 s timeout; if the API is down the user can still enter the address manually and we flag it `address_unverified` for ops. The regex is now the full GOV.UK pattern and has tests for W1A 0AX, EC1A 1BB, M1 1AE, B33 8TH, CR2 6XH and DN55 1PT.",
        ),
        dev(
            "also, do we need proof of address for UK customers",
        ),
        ai(
            "Not always: if the electronic identity check matches name + address + DOB against credit bureau data, that's sufficient under JMLSG guidance. Only when it fails do we ask for a document (utility bill or bank statement < 3 months old).",
        ),
    ],
    [
        dev(
            "ops complain manual review is slow. queue has 340 pending cases, oldest 4 days old",
            "s4-open",
        ),
        ai(
            "Looking at `onboarding_events`: 58% of MANUAL_REVIEW cases come from IdentiQ returning `document.glare` or `document.blurry`, not from anything suspicious. Those could go back to the user automatically with a 'retake photo' prompt instead of waiting for a human.",
            "glare-share",
        ),
        dev(
            "yes do that. auto-retry for image quality failures, max 2 times, then manual review",
            "auto-retake",
        ),
        ai(
            "Implemented: reason codes `document.glare`, `document.blurry`, `selfie.face_not_found` trigger `RETAKE_REQUESTED` with a push notification; after the second failure it goes to MANUAL_REVIEW as before. Expected to cut the queue by about half.",
            "retake-impl",
        ),
        dev(
            "and for the rest, can we sort the queue by risk instead of FIFO",
        ),
        ai(
            "Yes: priority = sanctions score band first, then PEP flag, then age of the case. I'd keep an SLA guard so nothing sits longer than 48 h regardless of priority — after 48 h a case jumps to the top.",
            "queue-priority",
        ),
        dev(
            "48h guard good. also the webhook timestamp window, we're seeing rejects from IdentiQ retries",
        ),
        ai(
            "Retries reuse the original signature timestamp, so a retry after 10 minutes fails our 5-minute window. IdentiQ's docs say to verify the signature and dedupe by `event_id` rather than rejecting old timestamps on retries. I changed the tolerance to 24 hours (their retry horizon), replay protection now comes from the `event_id` unique constraint.",
            "window-24h",
        ),
        dev(
            "ok makes sense. as long as dedupe is solid",
        ),
        ai(
            "The unique index on `onboarding_webhook_events(event_id)` is the guard; `WebhookReplayIT` posts the same signed event 3 times over a simulated 6 hours and asserts one state transition.",
        ),
    ],
    [
        dev(
            "GDPR: a customer sent a subject access request. what data of theirs do we even hold in onboarding",
            "s5-open",
        ),
        ai(
            "In onboarding: the customer profile, `onboarding_events` (state history), IdentiQ check results (decision + reason codes, not the images — IdentiQ keeps those), sanctions screening scores and review notes, address lookup results. The ID document images stay with IdentiQ; we can request them through their `GET /v2/checks/{id}/media` API for a SAR.",
            "sar-data",
        ),
        dev(
            "can we automate the export",
        ),
        ai(
            "`SubjectAccessExport` job: given a customer id, collects those tables into a ZIP of JSON files plus the IdentiQ media, encrypted with a one-time password sent by SMS; the download link expires in 7 days. SARs must be answered within one month, so the job also opens a ticket with the due date.",
            "sar-export",
        ),
        dev(
            "what about deletion requests for people who never finished onboarding",
        ),
        ai(
            "If they never became customers there's no account-opening obligation to keep records, except sanctions hits, which AML rules still require us to retain for 5 years. So: delete abandoned applications after 90 days automatically, unless a sanctions match was recorded.",
        ),
        dev(
            "90 days auto delete for abandoned, keep sanction hits. yes",
            "abandoned-90d",
        ),
        dev(
            "unrelated: compliance went through 3 months of the logged name-match scores. they want the automatic hit threshold lowered to 0.90, they found one true match scored 0.91",
        ),
        ai(
            "Changed `SANCTIONS_AUTO_HIT = 0.90` (was 0.92); the 0.85–0.90 band still goes to the low-priority review queue. Based on the logged scores that adds ~6 extra manual reviews a week. The change and compliance's sign-off are recorded in `docs/compliance/screening-thresholds.md`.",
            "threshold-090",
        ),
        ai(
            "`AbandonedApplicationPurge` runs weekly, deleting applications stuck before `APPROVED` for 90+ days, and asks IdentiQ to delete their media via `DELETE /v2/checks/{id}`. Records with a sanctions score ≥ 0.85 are kept and flagged `retained_aml`.",
        ),
    ],
]

_TALLY_ONBOARDING_ASKS: list[_Ask] = [
    ask("paraphrase", "how do we make sure callbacks from the identity vendor are authentic", "hmac"),
    ask(
        "paraphrase", "what stages does a new customer pass through before they can open an account", "states"
    ),
    ask(
        "paraphrase",
        "what do we do when the identity vendor sends the same callback twice or in the wrong order",
        "webhook-dedupe",
    ),
    ask("paraphrase", "how are people compared against government blacklists of names", "sanctions-match"),
    ask(
        "paraphrase",
        "what happens to existing customers when a new name is added to a sanctions list",
        "rescreen",
    ),
    ask("paraphrase", "why were London addresses being rejected at signup", "postcode-regex"),
    ask("entity", "X-IdentiQ-Signature", "hmac"),
    ask("entity", "W1A 0AX", "s3-open", "postcode-regex"),
    ask("entity", "document.glare document.blurry", "glare-share", "retake-impl"),
    ask("entity", "CustomerRestriction.SANCTIONS_REVIEW", "rescreen"),
    ask("entity", "Jaro-Winkler 0.92", "sanctions-match", "sanctions-threshold"),
    ask("decision", "what did we pick for UK address lookup", "postcode-lookup"),
    ask("decision", "what did we decide about blurry ID photos going to manual review", "auto-retake"),
    ask("decision", "how is the manual review queue ordered", "queue-priority"),
    ask(
        "changed",
        "how old can an IdentiQ webhook signature timestamp be before we reject it",
        "window-24h",
        was=("hmac",),
    ),
    ask("preference", "where does the developer want the identity vendor's secret kept", "pref-vault"),
    ask(
        "temporal",
        "what was the session about the growing backlog of cases for ops about",
        "s4-open",
        "auto-retake",
        "queue-priority",
    ),
    ask(
        "temporal",
        "what were we doing in the session on screening customers before approval",
        "s2-open",
        "sanctions-match",
    ),
    ask("decision", "what happens to sign-ups that were never completed", "abandoned-90d"),
    ask(
        "paraphrase",
        "how do we answer a customer who asks for a copy of everything we hold about them",
        "sar-export",
        "sar-data",
    ),
    ask(
        "changed",
        "at what name-match score does a sanctions hit go straight to review",
        "threshold-090",
        was=("sanctions-threshold",),
    ),
]


# ------------------------------------------------------------------ Emberfall: netcode (Rust)
_EMBER_NETCODE: list[Session] = [
    [
        dev(
            "Emberfall server, rust + tokio. 3v3 arena, top-down, fast projectiles. first question: tick rate. I was thinking 20Hz like a lot of mobas",
            "s1-open",
        ),
        ai(
            "For fast projectiles 20 Hz means 50 ms between simulation steps; a projectile at 30 m/s moves 1.5 m per tick, which makes hit registration feel mushy without heavy sub-stepping. I'd start at 30 Hz: 33 ms steps, still cheap for a 6-player match, and snapshots at the same rate. We can measure CPU per match and revisit.",
        ),
        dev(
            "ok 30Hz tick for now, snapshots every tick",
            "tick-30",
        ),
        ai(
            "Set `TICK_RATE_HZ = 30` in `server/src/sim/config.rs`. The loop uses `tokio::time::interval` with `MissedTickBehavior::Skip` so a slow tick doesn't cause a burst of catch-up ticks.",
        ),
        dev(
            "transport: raw UDP or something like quinn?",
        ),
        ai(
            "QUIC (quinn) gives encryption and congestion control but its streams are reliable and ordered, and unreliable datagrams are an extension that some middleboxes still mangle. For snapshots we want unreliable, unordered delivery with our own acks. I'd go raw UDP with a thin protocol: `netcode.io`-style connect tokens for auth, a 16-bit sequence number, ack + ack bitfield per packet.",
        ),
        dev(
            "raw udp then. what max packet size",
            "raw-udp",
        ),
        ai(
            "Keep every datagram ≤ 1200 bytes of payload. That stays under the IPv6 minimum MTU of 1280 with headers and avoids IP fragmentation, which on mobile networks turns one lost fragment into a lost packet. If a snapshot doesn't fit, we split entity updates across packets by priority, not fragment.",
            "mtu-1200",
        ),
        dev(
            "i like that. btw I want everything network-facing fuzzed, the packet decoder especially",
            "pref-fuzz",
        ),
        ai(
            "I'll add a `cargo-fuzz` target `fuzz_targets/decode_packet.rs` that feeds arbitrary bytes into `Packet::decode` and asserts no panic; it runs 10 minutes nightly in CI. `decode` returns `Result<Packet, DecodeError>` and never indexes slices without bounds checks.",
        ),
    ],
    [
        dev(
            "snapshots are too big. 6 players + up to 80 projectiles, full state is like 2.9KB per tick",
            "s2-open",
        ),
        ai(
            "Delta compression against the last snapshot the client acked: for each entity send only the fields that changed, with a bitmask header. Positions quantised to 1/64 m in 16 bits relative to the arena origin, rotation to 8 bits (1.4° steps). Projectiles are mostly predictable, so after spawn we only send them when they hit or get destroyed.",
            "delta",
        ),
        dev(
            "what if the client hasnt acked anything for a while, do we keep every old snapshot",
        ),
        ai(
            "Keep a ring buffer of the last 32 snapshots per client (~1 s at 30 Hz). If the client's last ack falls out of the buffer, send a full keyframe snapshot instead of a delta. That bounds memory at 32 × ~3 KB × 6 clients per match.",
            "ring-32",
        ),
        dev(
            "ok implement. target under 400 bytes/tick avg",
        ),
        ai(
            "Done in `net/src/snapshot/delta.rs`. In the replay of last week's playtest (match `pt-0611-b`) the average is 312 bytes/tick, p99 1,080 bytes during a 6-way fight with lots of spawns, all within the 1200-byte limit.",
            "delta-result",
        ),
        dev(
            'getting `Os { code: 11, kind: WouldBlock, message: "Resource temporarily unavailable" }` spam in logs on send',
        ),
        ai(
            "That's `EAGAIN` from a non-blocking `send_to` when the socket's send buffer is full; with tokio you should use `UdpSocket::send_to().await` (which waits for writability) rather than `try_send_to`. We were calling `try_send_to` in `Outbox::flush` and logging each failure. Switched to the async version and raised `SO_SNDBUF` to 4 MB via `socket2`.",
            "wouldblock",
        ),
        dev(
            "nice catch",
        ),
        ai(
            "Also made the send path drop a packet (and count it in `net_send_dropped_total`) if it would wait longer than 5 ms, so a stuck socket can't stall the tick.",
        ),
    ],
    [
        dev(
            "playtesters on wifi say their own character rubber-bands. we do client prediction right?",
            "s3-open",
        ),
        ai(
            "We predict movement locally, but reconciliation snaps the player to the server position whenever they differ by more than 1 cm, then replays inputs. With quantisation at 1/64 m (~1.6 cm) that threshold is smaller than our own rounding error, so we correct constantly. Raise the threshold to 10 cm and smooth small corrections over 100 ms instead of snapping.",
            "rubberband",
        ),
        dev(
            "ah lol. so the quantisation itself was triggering corrections",
        ),
        ai(
            "Yes — every tick the server's quantised position differed from the client's float position by up to 0.8 cm. Another contributor: the client simulates with `f32` but the server used `f64` for movement integration; I aligned both to `f32` with the same `fixed_step(dt = 1/30)` so they diverge much less.",
        ),
        dev(
            "what about hit detection, people complain they hit someone on screen but no damage",
        ),
        ai(
            "That's lag compensation. The server should rewind other players to where the shooter saw them: shooter's RTT/2 plus the interpolation delay (we render remote players 100 ms in the past). Keep a 1 s history of hitboxes per player and test the shot against the rewound positions. Cap the rewind at 200 ms so high-ping players can't shoot people around corners too long after they left.",
            "lag-comp",
        ),
        dev(
            "200ms cap ok. implement that",
            "rewind-cap",
        ),
        ai(
            "Implemented in `sim/src/combat/rewind.rs` using the existing snapshot ring (hitboxes only). Added a metric `combat_rewind_ms` histogram; in the playtest replay p50 is 62 ms and p99 hits the 200 ms cap for two players on hotel wifi.",
            "rewind-impl",
        ),
        dev(
            "I'd rather we log less and have more metrics, log lines at 30Hz are useless",
            "pref-metrics",
        ),
        ai(
            "Agreed — per-tick events become Prometheus counters/histograms; logs are kept for state changes (connect, disconnect, match end) and errors. I removed the per-tick `debug!` in `sim::step` and the per-packet `trace!` in the decoder.",
        ),
    ],
    [
        dev(
            "load test results: one match uses ~0.6ms per tick at 30Hz. designers want 60Hz because projectiles still feel off at high speed",
            "s4-open",
        ),
        ai(
            "At 0.6 ms/tick, 60 Hz is ~1.2 ms per 16.7 ms frame per match, so one core could still run ~10 matches with headroom. Bandwidth doubles though: ~312 B × 60 = ~19 KB/s per client downstream. That's fine for wifi and 4G. We could also keep snapshots at 30 Hz and simulate at 60.",
        ),
        dev(
            "let's go 60Hz simulation, snapshots stay 30Hz. best of both",
            "tick-60",
        ),
        ai(
            "Changed `TICK_RATE_HZ = 60` and added `SNAPSHOT_EVERY_N_TICKS = 2`. Client prediction now steps at 1/60 too, and lag compensation history is kept per tick (so 60 entries per second). The 200 ms rewind cap is unchanged.",
        ),
        dev(
            "does the 32-snapshot ring still cover a second?",
        ),
        ai(
            "Snapshots are still sent at 30 Hz, so 32 snapshots are still ~1 s; the hitbox history for rewind is a separate buffer that I resized to 64 ticks.",
        ),
        dev(
            "what about players on bad mobile connections, any packet loss numbers?",
        ),
        ai(
            "From the last playtest: median loss 0.3%, but 4 of 38 players had bursts of 8–12% loss on 4G. Inputs are the critical direction — I'd have the client send each input with the previous 3 inputs redundantly, so losing one packet doesn't lose the input. It's ~24 extra bytes per packet.",
            "input-redundancy",
        ),
        dev(
            "yes do redundant inputs, 3 previous",
        ),
        ai(
            "Done in `client/net/input_sender.rs`; the server ignores input frames it has already applied by frame number.",
        ),
    ],
    [
        dev(
            "security review flagged our connect tokens. what exactly do we check right now",
            "s5-open",
        ),
        ai(
            "The matchmaker issues a connect token: `client_id`, `match_id`, server address, expiry (30 s), encrypted with XChaCha20-Poly1305 under a key shared between matchmaker and game servers. The game server decrypts and checks expiry and that `match_id` is one it hosts. What's missing: tokens can be reused within their 30 s, and the shared key is the same across all regions.",
        ),
        dev(
            "fix both",
        ),
        ai(
            "1) Each token carries a random 64-bit nonce; the server keeps used nonces until their expiry and rejects reuse (`ConnectError::TokenReplayed`). 2) Per-region keys, rotated daily: the matchmaker signs with the region's current key and the server accepts current + previous, so rotation doesn't drop connecting players.",
            "token-replay",
        ),
        dev(
            "also the server panics on a malformed token? review saw a crash",
        ),
        ai(
            "Found it: `thread 'net-rx' panicked at 'range end index 72 out of range for slice of length 40', net/src/token.rs:88` — we sliced the ciphertext assuming a fixed length. The nightly fuzzer never reached it because the fuzz target only covered `Packet::decode`, not token parsing. Fixed with a length check returning `DecodeError::Truncated`, and added a second fuzz target `decode_connect_token`.",
            "token-panic",
        ),
        dev(
            "ugh. ok. anything else before the public beta",
        ),
        ai(
            "Rate-limit connection attempts per source IP (20/s, token bucket) before decrypting anything, since XChaCha20 decryption is the most expensive thing an unauthenticated packet can trigger. And make the server reply to unknown packets with nothing at all, so it can't be used for reflection amplification.",
            "conn-ratelimit",
        ),
        dev(
            "do it. ship for beta",
        ),
    ],
    [
        dev(
            "spectator mode for tournaments. casters want to watch live matches. can spectators just get the same snapshots",
            "s6-open",
        ),
        ai(
            "Same snapshot format, but two differences: spectators need every entity (players get only what's relevant to them), and for tournaments they must be delayed, otherwise a player's friend spectating can relay positions (ghosting). I'd run a relay process that receives full snapshots from the game server once and fans them out to spectators with a delay buffer.",
        ),
        dev(
            "how much delay",
        ),
        ai(
            "Esports titles typically use 90 s to 3 min. I'd make it a match setting, default 120 s for tournament matches and 0 for private custom games where ghosting doesn't matter.",
        ),
        dev(
            "120s default for tournaments, 0 for customs. relay process yes",
            "spectator-delay",
        ),
        ai(
            "Relay `spectate-relay` holds 120 s of snapshots (~7 MB per match at 30 Hz with full entity sets) and serves spectators over the same UDP protocol with a spectator connect token. The game server sends one extra stream per match no matter how many people watch.",
        ),
        dev(
            "do spectators get deltas too or full snapshots",
        ),
        ai(
            "Deltas against each spectator's acked snapshot like players, using the relay's own ring buffer; a spectator who joins mid-match gets a keyframe first.",
        ),
    ],
]

_EMBER_NETCODE_ASKS: list[_Ask] = [
    ask("paraphrase", "why don't we let datagrams get bigger than about a kilobyte", "mtu-1200"),
    ask("paraphrase", "how did we shrink the state we send every frame", "delta"),
    ask(
        "paraphrase",
        "what happens when a client hasn't confirmed receipt of updates for a long time",
        "ring-32",
    ),
    ask("paraphrase", "why did players on wifi see their own character jump back", "s3-open", "rubberband"),
    ask(
        "paraphrase",
        "how does the server judge a shot fired by someone with high ping",
        "lag-comp",
        "rewind-cap",
    ),
    ask("paraphrase", "how do we stop a lost packet from swallowing a player's keypress", "input-redundancy"),
    ask("paraphrase", "what stops someone from reusing a join ticket for a match", "token-replay"),
    ask("entity", "Os code 11 WouldBlock Resource temporarily unavailable", "wouldblock"),
    ask("entity", "net/src/token.rs:88 range end index 72", "token-panic"),
    ask("entity", "ConnectError::TokenReplayed", "token-replay"),
    ask("entity", "pt-0611-b bytes per tick", "delta-result"),
    ask("entity", "combat_rewind_ms histogram", "rewind-impl"),
    ask("entity", "net_send_dropped_total", "wouldblock"),
    ask("decision", "did we go with QUIC or plain sockets for game traffic", "raw-udp"),
    ask(
        "decision",
        "what was decided about limiting how far back the server rewinds for hits",
        "rewind-cap",
        "lag-comp",
    ),
    ask(
        "decision",
        "what did we decide to do about connection floods before decrypting tokens",
        "conn-ratelimit",
    ),
    ask("changed", "what is the simulation tick rate of the Emberfall server", "tick-60", was=("tick-30",)),
    ask("preference", "what does the developer want done for code that parses network input", "pref-fuzz"),
    ask("preference", "logs or metrics for per-tick events — what does the developer prefer", "pref-metrics"),
    ask(
        "temporal",
        "what were we doing in the session when the security review came back",
        "s5-open",
        "token-replay",
        "token-panic",
    ),
    ask("temporal", "what was the session about oversized snapshots about", "s2-open", "delta"),
    ask("decision", "how far behind live do tournament viewers watch", "spectator-delay"),
    ask(
        "temporal", "what did we do in the session about casters watching games", "s6-open", "spectator-delay"
    ),
    ask("changed", "do clients get a snapshot on every simulation step", "tick-60", was=("tick-30",)),
]


# ------------------------------------------------------------------ Emberfall: matchmaking
_EMBER_MATCHMAKING: list[Session] = [
    [
        dev(
            "matchmaker for emberfall. 3v3, solo queue + parties of 2 or 3. where do we keep the queue? I have redis already for sessions",
            "s1-open",
        ),
        ai(
            "Redis works well: one sorted set per region and mode, e.g. `mm:queue:eu-west:ranked3v3`, member = ticket id, score = the ticket's rating. A matchmaking worker runs every second, takes a window of tickets around each old ticket's rating with `ZRANGEBYSCORE`, and tries to form two teams of 3. Ticket details (party members, enqueue time, pings) sit in a hash `mm:ticket:<id>`.",
            "redis-queue",
        ),
        dev(
            "how do we stop two workers grabbing the same tickets",
        ),
        ai(
            "Do the claim atomically in a Lua script (`claim_match.lua`): it checks all six tickets are still in the sorted set, removes them with `ZREM`, and writes the match record, all in one `EVALSHA`. If any ticket is gone the script returns 0 and the worker tries again next round. Only one region worker runs per region anyway, but the script makes it safe with two.",
            "lua-claim",
        ),
        dev(
            "rating system? elo?",
        ),
        ai(
            "For team games with few matches per player I'd use Glicko-2 rather than Elo: it tracks rating deviation (RD), so new players move fast and settle as RD shrinks. Team rating = mean of members' ratings; we update each player from the team result. Store rating, RD and volatility per player per season in Postgres, mirror the rating into the ticket.",
            "glicko",
        ),
        dev(
            "glicko2 then. initial rating 1500 rd 350 standard?",
            "glicko-decided",
        ),
        ai(
            "Yes, standard defaults: rating 1500, RD 350, volatility 0.06, system constant τ = 0.5. Implemented in `mm/src/rating/glicko2.rs` with the reference test vectors from Glickman's paper.",
        ),
        dev(
            "prefer we write it ourselves rather than pull some random crate for this. it's 200 lines",
            "pref-own-glicko",
        ),
        ai(
            "Fine by me — it's self-contained math and owning it means we can add seasonal RD decay without forking a crate. It's 180 lines plus tests.",
        ),
    ],
    [
        dev(
            "queue times at night are awful. 6+ minutes in EU at 3am. how do we widen the search",
            "s2-open",
        ),
        ai(
            "Expand the acceptable rating window with wait time: start at ±100 and widen by 50 every 10 seconds, capped at ±600. Also let a ticket consider a second region once it has waited 90 s, if the player's ping there is under 80 ms.",
            "widen",
        ),
        dev(
            "won't that make games unfair at night",
        ),
        ai(
            "Some, but a 6-minute queue loses players, and at 3 am there are simply fewer people. We can make it visible: the match record stores `rating_spread`, and we track win rate vs spread. If matches with spread > 400 end in stomps, we tighten the cap for those hours.",
        ),
        dev(
            "ok ship the widening. 50 per 10s cap 600",
            "widen-decided",
        ),
        ai(
            "Shipped in matchmaker 0.9.0. Also fixed a bug where widening used the time since the *worker* started instead of the ticket's `enqueued_at`, so tickets widened instantly after a deploy.",
        ),
        dev(
            "we also get reports of parties of 3 vs 3 solos. is that a thing",
        ),
        ai(
            "Yes — the team builder fills each team to 3 regardless of composition, so a premade trio can land against three solo players, which is a real coordination advantage. Rule: a full party of 3 only matches against another party of 3, or a 2+1 team once the premade has waited over 120 s.",
            "party-rule",
        ),
        dev(
            "do that",
        ),
        ai(
            "Added `PartyBalance` constraint in `team_builder.rs`; unit tests cover 3v3 premades, 2+1 vs 1+1+1 and the 120 s fallback.",
        ),
    ],
    [
        dev(
            "incident last night: matchmaker stopped forming matches for 20 minutes in NA. redis CPU at 100%",
            "s3-open",
        ),
        ai(
            "The slowlog shows `ZRANGEBYSCORE mm:queue:na-east:ranked3v3 -inf +inf` taking 40–60 ms each, called for every ticket every second. When the NA queue grew to ~9k tickets during the weekend event, that became O(n²) work per round. The widening change made it worse, because wide windows meant the worker fetched the entire set.",
            "redis-incident",
        ),
        dev(
            "ouch. why -inf +inf",
        ),
        ai(
            "When a ticket reaches the ±600 cap, `window_for()` returned unbounded limits as a shortcut. Fix: always pass the real numeric bounds and add `LIMIT 0 200` to the range query; and process tickets oldest-first so we form matches for the longest waiters first and stop scanning when the round's time budget (250 ms) is spent.",
            "redis-fix",
        ),
        dev(
            "should we move the queue out of redis?",
        ),
        ai(
            "Not yet — with bounded queries Redis handles this easily (each query is O(log n + 200)). The alternative I'd consider later is keeping the queue in the matchmaker's memory per region with Redis only as a recovery log, but that adds failover complexity. Let's add `mm_round_duration_seconds` and alert if p95 > 0.5 s.",
            "round-alert",
        ),
        dev(
            "ok keep redis, bounded queries, round budget. alert on round duration",
            "keep-redis",
        ),
        ai(
            "Merged; load-tested with 50k synthetic tickets: a round takes 110 ms p95 and Redis CPU stays under 25%.",
        ),
        dev(
            "and write a postmortem pls, short one",
        ),
        ai(
            "Draft in `docs/postmortems/2024-07-13-na-matchmaking.md`: impact (20 min, no NA matches), cause (unbounded range scan at ±600 window), fixes (bounded ranges, LIMIT, time budget, alert).",
        ),
    ],
    [
        dev(
            "season 2 design. how do ratings carry over",
            "s4-open",
        ),
        ai(
            "Soft reset: new rating = 1500 + 0.5 × (old − 1500), and RD raised to at least 200 so everyone moves faster for the first matches. Placement: first 5 matches of the season don't show a rank to the player.",
            "soft-reset",
        ),
        dev(
            "and the visible rank tiers? bronze silver gold etc",
        ),
        ai(
            "Tiers derived from a conservative rating (rating − 2 × RD) so a lucky new player doesn't show Diamond after three wins: Bronze < 1200, Silver < 1450, Gold < 1700, Platinum < 1950, Diamond ≥ 1950. Stored only as derived values, never as separate state.",
            "tiers",
        ),
        dev(
            "good. also initial rating for brand new players should be lower, 1500 puts them against mid players and they get stomped",
        ),
        ai(
            "Data agrees: new accounts lose 64% of their first 10 matches. I'd start new players at 1300 with RD 350 — the high RD still lets strong newcomers climb quickly.",
        ),
        dev(
            "yeah change it: new players start at 1300",
            "start-1300",
        ),
        ai(
            "Changed `NEW_PLAYER_RATING = 1300.0` in `rating/defaults.rs`; RD 350 and volatility 0.06 stay. Existing players are unaffected; smurf detection can bump a fast-winning account's RD later.",
        ),
        dev(
            "please keep all these tunables in one toml file that designers can edit, not constants scattered around",
            "pref-toml",
        ),
        ai(
            "Moved them into `config/matchmaking.toml` (`[rating] new_player = 1300`, `[widen] step = 50, every_s = 10, cap = 600`, `[party] premade_fallback_s = 120`), loaded at startup and validated with `serde` + range checks; a bad value fails startup with a clear message.",
            "toml-file",
        ),
    ],
    [
        dev(
            "players report dodging: people quit during champion select to avoid bad matchups",
            "s5-open",
        ),
        ai(
            "Add a dodge penalty: leaving during select costs no rating the first time in 24 h, but puts you in a 5-minute queue lockout; the second dodge in 24 h costs 10 rating points and 30 minutes; the third, 60 minutes. Counters in Redis with 24 h TTL: `mm:dodge:<player_id>`.",
            "dodge",
        ),
        dev(
            "the others in the lobby should go back to queue with priority",
        ),
        ai(
            "Yes, the other five get their tickets re-enqueued with their original `enqueued_at`, so they keep their widened window and sit at the front of the oldest-first processing.",
            "requeue",
        ),
        dev(
            "ok. also regions: we're adding Sao Paulo. what do we need",
        ),
        ai(
            "A new queue key `mm:queue:sa-east:*`, game servers in the region, and a ping probe target so clients report `sa-east` latency. Cross-region fallback after 90 s should be limited to regions under 80 ms, so from Brazil in practice only `sa-east` itself; NA East is ~120 ms from São Paulo.",
            "sa-east",
        ),
        dev(
            "fine. launch sa-east next week",
        ),
    ],
    [
        dev(
            "what happens when someone disconnects in the first minute of a ranked match? players are furious they lose rating in a 2v3",
            "s6-open",
        ),
        ai(
            "Currently nothing special: the match continues 2v3 and the result counts fully. Common approach: if a player leaves in the first 60 s and doesn't reconnect within 30 s, the match is cancelled without rating changes for anyone, and the leaver gets the dodge penalty.",
        ),
        dev(
            "cancel early leaves, no rating change, leaver gets the penalty",
            "early-leave",
        ),
        ai(
            "Implemented: the game server reports `MatchCancelled { reason: EarlyLeave, leaver }`, the matchmaker skips the Glicko update and applies the penalty tier via the `mm:dodge` counter. The remaining five are re-queued with their original enqueue time, like after a dodge.",
        ),
        dev(
            "and after 60s? still 2v3 with full loss",
        ),
        ai(
            "After 60 s: the team with the leaver loses less — I'd scale their rating loss by 0.5 and the opponents' gain by 0.5 if the leaver was gone for over half the match. It's a small change in the update step. Backfilling a new player into a ranked match is not worth it.",
            "leaver-loss",
        ),
        dev(
            "ok do the 0.5 scaling too",
        ),
        ai(
            "Done in `rating/update.rs` with tests for the 0.5 factor and for a leaver who reconnects (no reduction if they were back within 30 s).",
        ),
        dev(
            "also the rating_spread data from the night widening is in. matches with spread over 400 end as stomps 80% of the time. lower the cap?",
        ),
        ai(
            "Yes — set `[widen] cap = 400` in `config/matchmaking.toml` (down from 600). Queue times at 3 am in EU go from ~70 s to ~110 s in the simulation, still far below the 6 minutes we started from, and the cross-region fallback after 90 s covers the rest.",
            "cap-400",
        ),
    ],
]

_EMBER_MATCHMAKING_ASKS: list[_Ask] = [
    ask("paraphrase", "where do waiting players sit until a game is formed", "redis-queue"),
    ask("paraphrase", "how do we avoid two workers putting the same player into two games", "lua-claim"),
    ask(
        "paraphrase",
        "how does the acceptable skill gap grow the longer someone waits",
        "widen",
        "widen-decided",
    ),
    ask("paraphrase", "why could a group of three friends end up against three strangers", "party-rule"),
    ask(
        "paraphrase", "what happens to the other players when someone quits during hero selection", "requeue"
    ),
    ask("paraphrase", "how is a player's visible league computed from their rating", "tiers"),
    ask("entity", "claim_match.lua EVALSHA", "lua-claim"),
    ask("entity", "ZRANGEBYSCORE -inf +inf na-east", "redis-incident", "redis-fix"),
    ask("entity", "mm_round_duration_seconds", "round-alert"),
    ask("entity", "mm:dodge key TTL", "dodge"),
    ask("entity", "2024-07-13 postmortem", "s3-open", "redis-incident"),
    ask("entity", "new_player = 1300 premade_fallback_s", "toml-file"),
    ask("decision", "what did we conclude about moving the matchmaking queue off Redis", "keep-redis"),
    ask("decision", "which rating algorithm did we pick", "glicko-decided", "glicko"),
    ask("decision", "how do ratings carry into a new season", "soft-reset"),
    ask("changed", "what rating does a brand new player start at", "start-1300", was=("glicko-decided",)),
    ask("preference", "did the developer want a third-party crate for the rating math", "pref-own-glicko"),
    ask(
        "preference",
        "where does the developer want game designers to change matchmaking numbers",
        "pref-toml",
    ),
    ask(
        "temporal",
        "what were we doing in the session after NA matchmaking stalled",
        "s3-open",
        "redis-incident",
        "redis-fix",
    ),
    ask(
        "temporal",
        "what did we work on in the session about players leaving during the pick phase",
        "s5-open",
        "dodge",
    ),
    ask(
        "decision",
        "what happens to ratings when someone quits in the first minute of a ranked game",
        "early-leave",
    ),
    ask("paraphrase", "does a team that played a player short lose as many points", "leaver-loss"),
    ask(
        "changed",
        "how wide can the skill window grow for someone waiting at night",
        "cap-400",
        was=("widen-decided",),
    ),
]


# ------------------------------------------------------------------ Emberfall: persistence and anti-cheat
_EMBER_PERSISTENCE: list[Session] = [
    [
        dev(
            "player inventory + progression storage for emberfall. cosmetics, currency (embers), xp. postgres via sqlx? game server writes at match end",
            "s1-open",
        ),
        ai(
            "Yes, but I'd not let game servers write to Postgres directly: they're in many regions and untrusted-ish (a compromised server shouldn't grant currency). Game servers send a signed `MatchResult` to a `progression` service, which validates it and writes with sqlx. The game server only needs an HTTP client and its signing key.",
            "progression-service",
        ),
        dev(
            "makes sense, progression service owns the db",
            "progression-owns-db",
        ),
        ai(
            "Schema: `players`, `wallets(player_id, embers bigint check (embers >= 0))`, `inventory_items(player_id, item_id, acquired_at, source)`, `xp_events`. Currency changes go through `wallet_transactions` with a reason, so support can explain any balance.",
        ),
        dev(
            "what if the progression service is down when a match ends",
        ),
        ai(
            "The game server writes the `MatchResult` to a local outbox file (`/var/lib/emberfall/outbox/<match_id>.json`) and a sidecar retries with backoff for up to 24 h. The progression service dedupes by `match_id` (primary key on `match_results`), so retries are safe.",
            "outbox-file",
        ),
        dev(
            "sqlx compile time checks need a db at build time right? CI pain",
        ),
        ai(
            "Use `cargo sqlx prepare` to write the query metadata into `.sqlx/` and commit it; CI builds with `SQLX_OFFLINE=true` and no database. A CI step runs `cargo sqlx prepare --check` against a Postgres service container to make sure the committed metadata is current.",
            "sqlx-offline",
        ),
        dev(
            "great. please always use query! macros, no string-built sql",
            "pref-query-macro",
        ),
        ai(
            "Will do: only `sqlx::query!` / `query_as!` with bind parameters; I added a clippy-style grep check in CI that fails on `format!(` near `sqlx::query(`.",
        ),
    ],
    [
        dev(
            "crash on a live server: `thread 'tokio-runtime-worker' panicked at 'called `Option::unwrap()` on a `None` value', src/match/state.rs:412`. happened 3 times today, all at match end",
            "s2-open",
        ),
        ai(
            "Line 412 is `let mvp = self.players.get(&self.mvp_id).unwrap();` in `MatchState::finish`. `mvp_id` is chosen from the score table, but a player who disconnected in the last seconds was already removed from `self.players` while still in the score table. So the MVP can be someone who isn't in the map anymore.",
            "mvp-panic",
        ),
        dev(
            "so a disconnecting MVP takes down the server lol",
        ),
        ai(
            'The whole process, yes, because the panic happened on a runtime worker without `catch_unwind` and we build with `panic = "abort"`. That kills every match on that process, not just this one. Two fixes: keep disconnected players in `players` with `connected = false` until the match ends, and return `Result` from `finish` instead of unwrapping.',
        ),
        dev(
            "do both. and should we run each match in its own task so one panic doesnt kill everything?",
        ),
        ai(
            'Each match already runs in its own tokio task, but with `panic = "abort"` a panic anywhere aborts the process. I\'d switch to `panic = "unwind"` in the release profile so a panicking match task ends alone; the match supervisor sees the `JoinError`, marks the match `aborted` and refunds entry. Costs a little binary size, no measurable speed difference in our benchmark.',
            "panic-unwind",
        ),
        dev(
            "ok switch to unwind. isolation matters more",
            "unwind-decided",
        ),
        ai(
            'Changed `Cargo.toml` `[profile.release] panic = "unwind"`, added `MatchSupervisor` handling `JoinError::is_panic()`, and a test that injects a panic in one of 4 concurrent matches and asserts the other 3 finish.',
        ),
        dev(
            "add a clippy lint against unwrap in the sim crate too",
        ),
        ai(
            "Added `#![deny(clippy::unwrap_used, clippy::expect_used)]` to `sim/src/lib.rs`; 17 call sites fixed, mostly with `let else` and early returns.",
        ),
    ],
    [
        dev(
            "cheating. we got clips of a guy moving way too fast. server authoritative movement should prevent that?",
            "s3-open",
        ),
        ai(
            "Movement is simulated on the server, but we trust the client's input `dt`. A speedhack sends inputs claiming more elapsed time, so the server integrates larger steps. Fix: ignore client-provided `dt`; every input applies exactly one fixed tick, and the server rejects more inputs per second than ticks (with a small burst allowance for jitter).",
            "speedhack",
        ),
        dev(
            "burst allowance how much",
        ),
        ai(
            "Allow up to 8 buffered inputs (~130 ms at 60 Hz) beyond the expected count; beyond that, extra inputs are dropped and counted. A player consistently over the budget for 10 s gets flagged `suspect_input_rate` for review rather than auto-banned, because broken wifi can produce bursts too.",
            "input-budget",
        ),
        dev(
            "flag not ban, good. what about aimbots",
        ),
        ai(
            "Harder. Server-side we can compute per-player stats: reaction time from target visible to shot, accuracy on moving targets, snap angle velocity. Aimbots show inhuman consistency (e.g. < 120 ms reactions with low variance). I'd log these features per match into `anticheat_features` and review outliers first, build rules later.",
            "aimbot-features",
        ),
        dev(
            "ok collect features first, no automated bans in v1",
            "no-autoban",
        ),
        ai(
            "Recorded: v1 anti-cheat only flags; bans are manual via the admin tool with the match replay attached.",
        ),
        dev(
            "replays — do we even keep them",
        ),
        ai(
            "Not yet. Since the server is authoritative, a replay is just the initial state plus every tick's inputs: ~3 KB/s per match compressed with zstd. A 10-minute match is ~1.8 MB. We could keep them 14 days in object storage.",
            "replays",
        ),
    ],
    [
        dev(
            "replay storage: decided to keep them. where/how long",
            "s4-open",
        ),
        ai(
            "Upload to the `emberfall-replays` bucket at match end as `replays/<yyyy>/<mm>/<dd>/<match_id>.efr.zst`, with a lifecycle rule deleting after 14 days. Replays attached to a report or a flag are copied to `replays-evidence/` with 180-day retention.",
            "replay-storage",
        ),
        dev(
            "format versioning? game updates change the sim",
        ),
        ai(
            "Header: magic `EFR1`, sim version (git hash of the `sim` crate), map id, RNG seed, then the input frames. The replay viewer refuses a replay whose sim version it doesn't have; we keep the last 6 server builds' sim crates as WASM in the viewer so replays from the last ~2 months play.",
            "replay-format",
        ),
        dev(
            "nice. ok now wallet stuff, a player got negative embers somehow, support ticket 88412",
            "embers-report",
        ),
        ai(
            "The check constraint `embers >= 0` makes that impossible in `wallets`... unless it's the client display. Checked ticket 88412: the wallet is 0, but the shop screen showed −150 because the client subtracted the price optimistically before the purchase call failed with `insufficient_funds` and never rolled the display back.",
            "negative-embers",
        ),
        dev(
            "lol ok so client bug",
        ),
        ai(
            "Yes. Fixed in the client: the shop now waits for the server response before changing the displayed balance. The server side was correct — `purchase_item` runs `UPDATE wallets SET embers = embers - $1 WHERE player_id = $2 AND embers >= $1` and treats 0 rows as insufficient funds.",
        ),
        dev(
            "I prefer we dont do optimistic UI for anything involving currency, tell the client folks",
            "pref-no-optimistic",
        ),
    ],
    [
        dev(
            "we're over budget on postgres. progression db is 420 GB, mostly xp_events",
            "s5-open",
        ),
        ai(
            "`xp_events` has 1.9 billion rows; each match writes ~30 (per player per reward). We only read them for the last 30 days in the profile screen. Options: partition by month and drop old partitions after rolling them up into `xp_totals`, or stop storing per-event rows and keep per-match sums.",
        ),
        dev(
            "partition monthly, keep 90 days raw, older rolled up into per-player per-day totals",
            "xp-partition",
        ),
        ai(
            "Plan: `xp_events` becomes range-partitioned on `created_at` by month using `pg_partman`; a nightly job rolls partitions older than 90 days into `xp_daily(player_id, day, xp)` and detaches + drops them. The migration copies in batches of 1M rows during off-peak; estimated 2 nights.",
        ),
        dev(
            "also the outbox retry window of 24h — we had a server offline for 2 days in the sydney DC and lost results",
        ),
        ai(
            "Then 24 h is too short. Rewards lost is worse than late rewards; I'd retry for 7 days, and on startup the sidecar scans any leftover outbox files regardless of age and sends them, since `match_id` dedupe makes late delivery harmless.",
        ),
        dev(
            "yes 7 days + resend leftovers at startup",
            "outbox-7d",
        ),
        dev(
            "moderators: lots of reports get filed more than two weeks after the match, and the replay's already gone. keep the normal replays longer",
        ),
        ai(
            "Raised the lifecycle rule on `emberfall-replays` from 14 to 30 days for `replays/`; evidence copies keep 180 days. Storage goes from ~2.1 TB to ~4.5 TB, about $100/month more on standard storage, less if we move replays older than 7 days to infrequent access, which I also added.",
            "replays-30d",
        ),
        ai(
            "Changed the sidecar's `MAX_RETRY_AGE` to 7 days and added a startup sweep of `/var/lib/emberfall/outbox/`. Results older than the season end are still accepted but only grant XP to the archived season.",
        ),
    ],
]

_EMBER_PERSISTENCE_ASKS: list[_Ask] = [
    ask(
        "paraphrase",
        "why can't game servers update the player database themselves",
        "progression-service",
        "progression-owns-db",
    ),
    ask(
        "paraphrase", "how does CI compile the checked SQL queries without a database running", "sqlx-offline"
    ),
    ask(
        "paraphrase",
        "why did one player leaving at the end of a game crash the whole server",
        "s2-open",
        "mvp-panic",
    ),
    ask("paraphrase", "how do we stop a cheater from moving faster than allowed", "speedhack"),
    ask("paraphrase", "how many extra inputs can arrive at once before we discard them", "input-budget"),
    ask(
        "paraphrase", "what statistics would reveal someone using aim assistance software", "aimbot-features"
    ),
    ask(
        "paraphrase",
        "how do recordings of old matches keep playing after the game is updated",
        "replay-format",
    ),
    ask("entity", "src/match/state.rs:412 Option::unwrap", "s2-open", "mvp-panic"),
    ask("entity", "support ticket 88412", "embers-report", "negative-embers"),
    ask("entity", "EFR1 magic header", "replay-format"),
    ask("entity", "suspect_input_rate", "input-budget"),
    ask("entity", "efr.zst object key layout", "replay-storage"),
    ask("entity", "SQLX_OFFLINE", "sqlx-offline"),
    ask(
        "decision",
        "panic strategy in the release profile — what did we choose",
        "unwind-decided",
        "panic-unwind",
    ),
    ask("decision", "are cheaters banned automatically", "no-autoban"),
    ask("decision", "what did we decide about the oversized xp table", "xp-partition"),
    ask(
        "changed",
        "how long does a game server keep retrying to deliver match results",
        "outbox-7d",
        was=("outbox-file",),
    ),
    ask(
        "preference",
        "what does the developer think of optimistic updates for currency in the shop",
        "pref-no-optimistic",
    ),
    ask("preference", "how does the developer want SQL written in the Rust services", "pref-query-macro"),
    ask(
        "temporal",
        "what were we doing in the session about the player who moved too fast",
        "s3-open",
        "speedhack",
    ),
    ask("temporal", "what was the session where the database bill came up about", "s5-open", "xp-partition"),
    ask(
        "changed",
        "how long are ordinary match recordings kept in storage",
        "replays-30d",
        was=("replay-storage",),
    ),
]


# ------------------------------------------------------------------ Silt: sensor ingestion
_SILT_INGEST: list[Session] = [
    [
        dev(
            "new project, Silt. soil moisture probes on farms, LoRaWAN, going through The Things Network (TTN v3). we need to get uplinks into our storage. python shop. where do i start",
            "s1-open",
        ),
        ai(
            "TTN v3 can push each uplink to an HTTP webhook. I'd put a small FastAPI service `silt-ingest` behind it that validates the payload, decodes the sensor bytes, and appends to a durable buffer — not straight into the warehouse. From the buffer a batch job writes Parquet files to S3 partitioned by date. That keeps the webhook fast (TTN times out after ~5 s) and lets us replay.",
            "webhook-arch",
        ),
        dev(
            "what buffer? we don't have kafka and i dont want to run it",
            "pref-no-kafka",
        ),
        ai(
            "Then SQS: the webhook handler does `send_message` with the raw uplink JSON and returns 202. A worker drains SQS in batches of 10, decodes, and writes newline-delimited JSON to `s3://silt-raw/uplinks/dt=YYYY-MM-DD/hour=HH/` every 5 minutes; a Dagster job compacts each hour into Parquet. No brokers to operate.",
            "sqs",
        ),
        dev(
            "ok sqs. payload is 11 bytes from the SM-200 probe. moisture at 3 depths + temp + battery",
        ),
        ai(
            "Can you paste the vendor's byte layout? I'll write `decode_sm200(payload: bytes) -> Reading` with tests from their example frames.",
        ),
        dev(
            "bytes 0-1 moisture 10cm, 2-3 moisture 30cm, 4-5 moisture 60cm (uint16 big endian, value/100 = % VWC), 6-7 soil temp int16 BE /10 °C, 8-9 battery mV uint16 BE, 10 status flags",
        ),
        ai(
            "Implemented in `silt_ingest/decoders/sm200.py` with `struct.unpack('>HHHhHB', payload)`. Validation: VWC must be 0–60%, temp −20 to 60 °C, otherwise the reading is kept but flagged `out_of_range`. Test frame `0x0D 0x48 ...` from the vendor sheet decodes to 34.00 / 29.12 / 25.60 % and 14.3 °C, 3,412 mV.",
            "sm200-decode",
        ),
        dev(
            "why keep out of range readings",
        ),
        ai(
            "Because a probe going out of range is itself a signal (e.g. waterlogged or pulled out of the ground), and agronomists asked for 'never silently drop data'. Flagged rows are excluded from the daily aggregates but visible in the device health view.",
        ),
    ],
    [
        dev(
            "duplicates. we get the same uplink 2-3 times sometimes, counts are inflated",
            "s2-open",
        ),
        ai(
            "LoRaWAN uplinks are received by every gateway in range, and TTN dedupes within a short window, but our webhook also retries on timeouts. Each uplink has `end_device_ids.dev_eui` and a frame counter `f_cnt`; the pair identifies the message. Dedupe on `(dev_eui, f_cnt)` in the compaction step.",
            "dedupe",
        ),
        dev(
            "f_cnt resets when the device rejoins though",
        ),
        ai(
            "Right — after a rejoin (OTAA) `f_cnt` restarts at 0, so `(dev_eui, f_cnt)` alone would treat a new reading as a duplicate of an old one. Use `(dev_eui, f_cnt, received_at truncated to the hour)`? That's fragile. Better: `(dev_eui, session_key_id, f_cnt)` — TTN includes `session_key_id` in the uplink and it changes on every join.",
            "dedupe-session-key",
        ),
        dev(
            "nice, use session_key_id",
            "dedupe-decided",
        ),
        ai(
            "Done: the compaction job keeps the first-received row per `(dev_eui, session_key_id, f_cnt)`. Re-running it over March removed 412,118 duplicate rows (6.1%). Also added a data test that fails if duplicates appear in `uplinks_clean`.",
            "dedupe-rerun",
        ),
        dev(
            "also what timestamp do we use, the gateway one or ours",
        ),
        ai(
            "The probe has no clock, so the measurement time is when the gateway received it. Use `uplink_message.received_at` from TTN (network server time, UTC) rather than our webhook arrival time, which lags under retries. Store everything in UTC and convert to the farm's timezone only in reports.",
            "timestamps",
        ),
        dev(
            "utc everywhere, farm tz only at the edge. yes",
        ),
    ],
    [
        dev(
            "the ingest service returns 500s at night. cloudwatch shows `botocore.exceptions.ClientError: An error occurred (ThrottlingException) when calling the SendMessage operation: Rate exceeded`",
            "s3-open",
        ),
        ai(
            "Standard SQS queues have practically unlimited throughput, so a `ThrottlingException` on `SendMessage` is odd... unless the queue is FIFO. Checking the Terraform: `silt-uplinks.fifo` with `fifo_throughput_limit = perQueue` — that's 300 messages/s without batching. At 02:00 all probes send their daily battery report together.",
            "fifo-throttle",
        ),
        dev(
            "why is it fifo at all",
        ),
        ai(
            "It was created FIFO for ordering, but we don't need ordering: dedupe is done by `(dev_eui, session_key_id, f_cnt)` and the compaction sorts by `received_at`. Switch to a standard queue, which removes the limit. Meanwhile the handler should retry `SendMessage` with botocore's adaptive retry mode rather than failing the webhook.",
        ),
        dev(
            "switch to standard queue. and adaptive retries",
            "standard-queue",
        ),
        ai(
            "Terraform change: new `silt-uplinks` standard queue, the old FIFO one drained then deleted. boto3 client uses `Config(retries={'mode': 'adaptive', 'max_attempts': 6})`. Also the daily battery report is now spread by the firmware over a 30 minute jitter window in the next firmware release (v1.4).",
        ),
        dev(
            "btw please type-annotate everything and run mypy strict in CI, i don't want untyped python in this repo",
            "pref-mypy",
        ),
        ai(
            "Added `mypy --strict` to the CI workflow and pyproject; fixed 43 errors, mostly missing return types and an untyped `json.loads` result now parsed into a pydantic `TtnUplink` model.",
        ),
    ],
    [
        dev(
            "new probe model from a second vendor, AquaSense AS-3. different payload. how do we support multiple decoders",
            "s4-open",
        ),
        ai(
            "A registry keyed by device profile: TTN gives us `version_ids.model_id` (e.g. `sm-200`, `as-3`) in the uplink. `DECODERS: dict[str, Callable[[bytes], Reading]]` in `decoders/__init__.py`; unknown models land in `s3://silt-raw/undecoded/` and raise an alert instead of failing the batch.",
            "decoder-registry",
        ),
        dev(
            "AS-3 payload is LPP (cayenne) encoded",
        ),
        ai(
            "Cayenne LPP is channel + type + value triples; I wrote a small decoder for the types AS-3 uses (0x68 humidity → VWC, 0x67 temperature, 0x02 analog input → battery volts). Test vectors from the AS-3 datasheet pass. Note AS-3 reports battery in volts ×100, not millivolts, so it's normalised to mV in the Reading.",
            "lpp",
        ),
        dev(
            "good catch on the units",
        ),
        ai(
            "There's another unit difference: AS-3 measures moisture at 15 and 45 cm, not 10/30/60. The `Reading` now carries `depth_cm` per measurement rather than fixed column names, so downstream models must pivot by depth.",
            "depths",
        ),
        dev(
            "hmm that affects the warehouse models. fine, depth_cm per row",
        ),
        ai(
            "The raw schema is now long format: one row per `(reading_id, depth_cm, vwc_pct)`. I'll flag it for the warehouse conversation — `stg_readings` needs updating.",
        ),
    ],
    [
        dev(
            "ttn's webhook retries are hammering us when s3 is slow. can we ack faster",
            "s5-open",
        ),
        ai(
            "The handler already only enqueues to SQS; the slow part is pydantic validation of the full uplink plus a synchronous DynamoDB lookup for the farm mapping I added last month. Move the farm lookup to the worker and validate only the fields we need at the edge. p95 drops from 820 ms to ~40 ms in the load test.",
            "ack-fast",
        ),
        dev(
            "do it. also, I changed my mind on kafka-free: we're getting 2 more customers with their own networks (chirpstack). still no kafka though",
        ),
        ai(
            "ChirpStack can post to an HTTP integration too, with a different JSON shape. I'd add a `/chirpstack` route that maps their event into the same internal `Uplink` model and enqueues to the same SQS queue, so the worker and dedupe don't change. ChirpStack's equivalent of `session_key_id` is the `devAddr` + join time, so the dedupe key needs a per-network adapter.",
            "chirpstack",
        ),
        dev(
            "ok. per network adapter for dedupe key",
        ),
        ai(
            "`NetworkAdapter` protocol with `to_uplink(raw) -> Uplink` and `dedupe_key(uplink) -> tuple[str, ...]`; `TtnAdapter` and `ChirpstackAdapter` implement it. The compaction job groups by `dedupe_key`.",
            "network-adapter",
        ),
    ],
    [
        dev(
            "firmware v1.4 with the jittered battery report is ready. how do we get it onto 600 probes in the field",
            "s6-open",
        ),
        ai(
            "Firmware updates over the air (FUOTA) on LoRaWAN are slow: multicast fragmented sessions, ~60 KB image at DR3 takes hours and costs airtime in the fair-use budget of TTN (30 s uplink airtime per device per day). The SM-200 vendor supports FUOTA via their own server in class C multicast. Let's do a pilot on 20 probes at one farm first.",
        ),
        dev(
            "pilot 20 first, then batches of 100 per night",
            "fuota-rollout",
        ),
        ai(
            "Plan recorded: pilot at Fazenda Boa Vista (20 probes), then 100 per night in the 01:00–04:00 local window, stopping automatically if more than 2% of a batch fail to report within 24 h after the update.",
        ),
        dev(
            "also battery alerts. at what voltage do we tell the farmer to replace",
        ),
        ai(
            "The SM-200 uses a 3.6 V Li-SOCl2 cell whose voltage is flat until nearly empty, then falls fast. Vendor guidance: below 3,300 mV under load the remaining life is a few weeks. Alert at 3,300 mV sustained over 3 days (single readings dip in cold nights).",
            "battery-alert",
        ),
        dev(
            "3300mV for 3 days. ok",
        ),
        ai(
            "Added `mon_battery_low` in the pipeline and an email digest per farm every Monday listing probes to replace.",
        ),
    ],
]

_SILT_INGEST_ASKS: list[_Ask] = [
    ask(
        "paraphrase",
        "why don't sensor messages go straight into the warehouse when they arrive",
        "webhook-arch",
    ),
    ask(
        "paraphrase",
        "how are the raw bytes from the first vendor's soil probe turned into numbers",
        "sm200-decode",
    ),
    ask("paraphrase", "what identifies the same radio message heard twice", "dedupe", "dedupe-session-key"),
    ask("paraphrase", "which clock's time do we record for a measurement", "timestamps"),
    ask("paraphrase", "why did the webhook fail every night around 2am", "s3-open", "fifo-throttle"),
    ask("paraphrase", "how do we handle probes that measure at different soil depths", "depths"),
    ask("paraphrase", "how did we make the webhook answer the network server quicker", "ack-fast"),
    ask("entity", "ThrottlingException SendMessage Rate exceeded", "s3-open", "fifo-throttle"),
    ask("entity", "struct.unpack >HHHhHB", "sm200-decode"),
    ask("entity", "version_ids.model_id decoder", "decoder-registry"),
    ask("entity", "AquaSense AS-3 Cayenne LPP", "s4-open", "lpp"),
    ask("entity", "412,118 duplicate rows", "dedupe-rerun"),
    ask("entity", "silt-uplinks.fifo fifo_throughput_limit", "fifo-throttle"),
    ask(
        "decision",
        "what did we decide to dedupe uplinks on after rejoins",
        "dedupe-decided",
        "dedupe-session-key",
    ),
    ask("decision", "which kind of SQS queue did we settle on for uplinks", "standard-queue"),
    ask("decision", "how will ChirpStack customers' data get in", "chirpstack", "network-adapter"),
    ask(
        "changed",
        "what is the dedupe key for an uplink now that there is more than one network",
        "network-adapter",
        was=("dedupe-decided",),
    ),
    ask("preference", "what does the developer think about running Kafka for Silt", "pref-no-kafka"),
    ask("preference", "what are the developer's rules for type checking Python", "pref-mypy"),
    ask(
        "temporal",
        "what were we doing in the session when a second probe vendor came along",
        "s4-open",
        "decoder-registry",
        "lpp",
    ),
    ask(
        "temporal",
        "what was the session about duplicated readings about",
        "s2-open",
        "dedupe",
        "dedupe-decided",
    ),
    ask("entity", "3,300 mV battery", "battery-alert"),
    ask("decision", "how are we rolling out new probe firmware", "fuota-rollout"),
]


# ------------------------------------------------------------------ Silt: warehouse and dbt
_SILT_WAREHOUSE: list[Session] = [
    [
        dev(
            "warehouse for silt. data is small, ~40M readings/year. we have parquet in s3. snowflake feels like overkill cost wise. options?",
            "s1-open",
        ),
        ai(
            "At that size DuckDB is plenty: dbt with the `dbt-duckdb` adapter can read the Parquet in S3 directly (`read_parquet('s3://silt-raw/parquet/**/*.parquet', hive_partitioning=true)`), build models into a DuckDB file, and export marts as Parquet for the dashboard. Cost is one small container running dbt nightly. If many analysts need concurrent SQL later, MotherDuck or Snowflake can come then.",
            "duckdb",
        ),
        dev(
            "duckdb + dbt-duckdb it is. dashboard is metabase",
            "duckdb-decided",
        ),
        ai(
            "Metabase has a DuckDB driver (community, `motherduck/metabase_duckdb_driver`); it reads a DuckDB file, so the nightly job publishes `silt_marts.duckdb` to an EFS volume Metabase mounts read-only. Models: `stg_readings` → `int_readings_clean` → `fct_moisture_daily`, `dim_devices`, `dim_fields`.",
        ),
        dev(
            "sql style: lowercase keywords, CTEs over subqueries, one CTE per step, trailing commas. set up sqlfluff to enforce",
            "pref-sql-style",
        ),
        ai(
            "`.sqlfluff` with `dialect = duckdb`, `templater = dbt`, `capitalisation_policy = lower` for keywords and functions, `L044`/`ST05` to forbid subqueries in FROM/JOIN, and trailing commas required. CI runs `sqlfluff lint models/`.",
        ),
        dev(
            "daily aggregate: per device per depth per day, min/max/mean VWC. day boundaries in UTC?",
        ),
        ai(
            "UTC days are simplest and consistent across farms; `date_trunc('day', received_at)`. Farms span UTC−3 (Brazil) to UTC+10 (Queensland) though, so a UTC day cuts the local night in half. For now UTC, as the first dashboards are technical.",
            "utc-days",
        ),
        dev(
            "utc days for now yes",
        ),
    ],
    [
        dev(
            "fct_moisture_daily full refresh takes 14 minutes now. make it incremental?",
            "s2-open",
        ),
        ai(
            "Yes: `materialized='incremental'`, `unique_key=['device_id','depth_cm','day']`, `incremental_strategy='delete+insert'`. On each run reprocess the last 3 days, because late uplinks (gateway outages, our 7-day SQS retention) can arrive for past days: `where day >= (select max(day) from {{ this }}) - interval 3 day`.",
            "incremental",
        ),
        dev(
            "3 days lookback enough? gateways on farms go offline for a week sometimes and then flush",
        ),
        ai(
            "Good point — LoRaWAN devices don't buffer, but some gateways (the Milesight UG65s) do queue uplinks when backhaul is down. Data shows 99.7% of readings arrive within 3 days and the max delay seen was 9 days. I'd use 10 days of lookback; it costs ~40 s instead of ~15 s per run.",
            "late-gateways",
        ),
        dev(
            "10 days lookback",
            "lookback-10",
        ),
        ai(
            "Set `var('late_arrival_days', 10)` used by all incremental models. Runtime for the full DAG nightly: 2 min 10 s.",
        ),
        dev(
            "and backfill for 2023, we got historical CSV exports from the pilot farms",
        ),
        ai(
            "Load them as a separate source `pilot_2023` (seeds are too big — 6.2M rows), map columns to the `stg_readings` contract in `stg_pilot_readings`, and union in `int_readings_clean`. Then one `dbt build --full-refresh --select fct_moisture_daily+`. The CSVs use local time without offset (`2023-05-04 06:15`), so convert with each farm's timezone from `dim_fields`.",
            "backfill-2023",
        ),
        dev(
            "ugh local time without offset. dst?",
        ),
        ai(
            "Ambiguous hour at the DST end (Europe farms, late October) — the export has duplicate `02:xx` rows. I keep both, resolve the first as summer time and the second as winter time by row order, and flag them `dst_ambiguous` so they can be excluded if it matters. 1,104 rows affected.",
            "dst-ambiguous",
        ),
    ],
    [
        dev(
            "agronomists say the daily numbers don't match what they see on the farm. irrigation at 5am local in brazil shows up on two different days",
            "s3-open",
        ),
        ai(
            "That's the UTC day boundary: 05:00 in São Paulo is 08:00 UTC, fine, but evening irrigation at 22:00 local is 01:00 UTC next day, so one irrigation event's rise is split across two UTC days. For agronomic use the day has to be the field's local calendar day.",
        ),
        dev(
            "switch daily aggregates to farm local days then",
            "local-days",
        ),
        ai(
            "Changed `fct_moisture_daily` to group by `date_trunc('day', timezone(dim_fields.tz, received_at))` as `local_day`, kept `utc_day` as a column for the technical dashboards. The unique key is now `(device_id, depth_cm, local_day)`; this needed one full refresh.",
        ),
        dev(
            "tests. what do we test in dbt",
        ),
        ai(
            "Generic tests: `unique` + `not_null` on keys, `relationships` from readings to `dim_devices`, `accepted_values` on `depth_cm`. Plus `dbt_expectations.expect_column_values_to_be_between` on `vwc_pct` 0–60 for clean rows, and a freshness check on the source: warn after 6 h, error after 24 h without new uplinks.",
            "dbt-tests",
        ),
        dev(
            "freshness per farm would be better, one dead gateway shouldn't hide",
        ),
        ai(
            "Source freshness is per table, so I added a model `mon_field_freshness` with last reading per field and a singular test `assert_fields_reporting.sql` that fails listing fields silent for more than 24 h (except fields marked `seasonal_off`).",
            "field-freshness",
        ),
    ],
    [
        dev(
            "three customers now want SQL access to their own data, concurrently, plus the metabase load. is duckdb still ok",
            "s4-open",
        ),
        ai(
            "This is the point I mentioned: a DuckDB file allows one writer and many readers in-process, but it's not a multi-tenant SQL server — no per-customer access control, no remote connections. Options: MotherDuck (hosted DuckDB, shares per customer) or Snowflake with row access policies. Our dbt models port to either with small macro changes.",
        ),
        dev(
            "cost?",
        ),
        ai(
            "Rough monthly: MotherDuck Standard ~$25/user plus compute, we'd have ~8 users → ~$300. Snowflake X-SMALL with auto-suspend 60 s, ~2 h active per day → ~$180 compute + storage ~$5, plus reader accounts for customers. Snowflake's row access policies and secure data sharing fit the 'customers see their own data' need directly.",
        ),
        dev(
            "lets move the marts to snowflake. keep duckdb for local dev runs",
            "snowflake",
        ),
        ai(
            "Plan: dbt targets `dev` (duckdb) and `prod` (snowflake); marts build in `SILT.MARTS`, a row access policy on `customer_id` using a mapping table, and one reader account per customer. `read_parquet` sources become an external stage `@silt_raw_stage` on the same S3 bucket. Metabase switches to its Snowflake driver.",
            "snowflake-plan",
        ),
        dev(
            "warehouse size xs and auto suspend 60s, i don't want surprise bills",
            "pref-cost",
        ),
        ai(
            "`SILT_WH` is X-SMALL, `AUTO_SUSPEND = 60`, `AUTO_RESUME = TRUE`, plus a resource monitor at 50 credits/month that notifies at 80% and suspends at 100%.",
        ),
    ],
    [
        dev(
            "first snowflake bill: 71 credits. the monitor suspended the warehouse on the 26th and the dashboards died",
            "s5-open",
        ),
        ai(
            "Query history shows the culprit: Metabase's sync of the `fct_moisture_daily` table metadata plus a dashboard auto-refreshing every 60 s, which kept the warehouse awake ~19 h/day. The dbt nightly run itself is ~4 credits/month.",
            "bill-cause",
        ),
        dev(
            "lol. fix",
        ),
        ai(
            "1) Dashboard auto-refresh set to 1 h (data only changes nightly anyway). 2) Metabase database sync schedule from hourly to daily at 05:00 UTC. 3) Metabase results caching for 12 h. 4) Separate `SILT_BI_WH` for Metabase so dbt never gets blocked by a BI suspension.",
            "bill-fix",
        ),
        dev(
            "and raise the monitor to 80 credits this month only",
            "monitor-80",
        ),
        ai(
            "Resource monitor raised to 80 for this month with a note to set it back to 50 on the 1st; I added a calendar reminder in the ops channel and a dbt post-hook check is not needed for this.",
        ),
    ],
    [
        dev(
            "CI for dbt takes 11 minutes because it builds every model on each PR. can we only build what changed",
            "s6-open",
        ),
        ai(
            "Slim CI: store the production `manifest.json` as an artifact after each nightly prod run, then in the PR job `dbt build --select state:modified+ --defer --state prod-artifacts/`. Changed models and their children build in a CI schema, unchanged parents are read from prod via defer.",
            "slim-ci",
        ),
        dev(
            "snowflake CI schema per PR?",
        ),
        ai(
            "Yes, `SILT.CI_PR_<number>`, created by the job and dropped when the PR closes by a small workflow; the CI role can only create in schemas prefixed `CI_PR_`. Typical PR now builds 3–8 models in about 90 s.",
        ),
        dev(
            "do it. keep the full build nightly though",
            "slim-ci-decided",
        ),
        ai(
            "Nightly prod job still runs `dbt build` of everything and uploads `manifest.json` to `s3://silt-dbt-artifacts/prod/` for the next PRs.",
        ),
    ],
]

_SILT_WAREHOUSE_ASKS: list[_Ask] = [
    ask("paraphrase", "why did we start without a cloud data warehouse", "duckdb"),
    ask(
        "paraphrase",
        "how does the daily moisture model avoid rebuilding all history every night",
        "incremental",
    ),
    ask("paraphrase", "how did we load the pilot farms' old export files", "backfill-2023"),
    ask("paraphrase", "what did we do with the repeated hour when clocks went back", "dst-ambiguous"),
    ask("paraphrase", "how do we notice a single farm that has stopped sending data", "field-freshness"),
    ask("paraphrase", "why did the first invoice from the warehouse vendor overshoot", "bill-cause"),
    ask("entity", "dbt-duckdb read_parquet hive_partitioning", "duckdb"),
    ask("entity", "Milesight UG65", "late-gateways"),
    ask("entity", "assert_fields_reporting.sql", "field-freshness"),
    ask("entity", "expect_column_values_to_be_between vwc_pct", "dbt-tests"),
    ask("entity", "SILT_BI_WH", "bill-fix"),
    ask("entity", "@silt_raw_stage row access policy", "snowflake-plan"),
    ask(
        "decision", "where did we decide the customer-facing marts should live", "snowflake", "snowflake-plan"
    ),
    ask(
        "decision",
        "how many days of late data does the incremental run reprocess",
        "lookback-10",
        "incremental",
    ),
    ask("decision", "which BI tool did we pick for the silt dashboards", "duckdb-decided"),
    ask("changed", "where does Metabase read Silt's marts from", "snowflake-plan", was=("duckdb-decided",)),
    ask(
        "changed",
        "what is the monthly credit cap on Silt's warehouse resource monitor right now",
        "monitor-80",
        was=("pref-cost",),
    ),
    ask(
        "changed",
        "do daily moisture aggregates use UTC days or the field's local day",
        "local-days",
        was=("utc-days",),
    ),
    ask(
        "preference",
        "what SQL formatting conventions does the developer want in dbt models",
        "pref-sql-style",
    ),
    ask("preference", "what warehouse settings did the developer insist on to control spend", "pref-cost"),
    ask(
        "temporal",
        "what were we doing in the session when agronomists said the daily figures were wrong",
        "s3-open",
        "local-days",
    ),
    ask(
        "temporal",
        "what was the session about customers wanting their own SQL access about",
        "s4-open",
        "snowflake",
        "snowflake-plan",
    ),
    ask("entity", "state:modified+ --defer", "slim-ci"),
    ask(
        "paraphrase", "why don't pull requests rebuild every dbt model anymore", "slim-ci", "slim-ci-decided"
    ),
]


# ------------------------------------------------------------------ Lintel: lint rules (Go CLI)
_LINTEL_RULES: list[Session] = [
    [
        dev(
            "side project: lintel, a Go CLI that lints postgres migration files for dangerous operations (locks, rewrites). first decision: how do we parse SQL",
            "s1-open",
        ),
        ai(
            "Two realistic options: `pganalyze/pg_query_go`, which wraps Postgres's real parser (libpg_query) via cgo and gives the exact AST Postgres would build, or a hand-written parser for the subset we care about. The real parser means no surprises on odd syntax; the cost is cgo (cross-compiling gets harder) and ~9 MB more binary.",
        ),
        dev(
            "correctness > binary size. pg_query_go",
            "pg-query",
        ),
        ai(
            "Using `github.com/pganalyze/pg_query_go/v5` (Postgres 16 grammar). `lintel check` parses each file with `pg_query.Parse`, walks `RawStmt`s and hands each statement to the rules. Statement locations come from `stmt_location` so we can report `file:line:col`.",
            "pg-query-impl",
        ),
        dev(
            "first rules pls. the ones that hurt us in prod",
        ),
        ai(
            "Initial set:\n- `LT001` adding a column with a volatile default (rewrites the table before PG 11, and still for volatile defaults like `now()`... actually `now()` is stable; `random()`/`gen_random_uuid()` rewrite)\n- `LT002` `ALTER COLUMN ... TYPE` that rewrites the table\n- `LT003` `SET NOT NULL` without a prior `CHECK (col IS NOT NULL) NOT VALID` + validate\n- `LT004` `CREATE INDEX` without `CONCURRENTLY`\n- `LT005` adding a foreign key without `NOT VALID`",
            "rules-initial",
        ),
        dev(
            "LT004 is the big one for us, we took down checkout with a non concurrent index on orders once",
        ),
        ai(
            "LT004 fires on `CREATE INDEX` / `CREATE UNIQUE INDEX` without `CONCURRENTLY` on a table not created in the same file (indexing a brand-new table is fine). It also warns when `CONCURRENTLY` is used inside a transaction block, since Postgres rejects that with `CREATE INDEX CONCURRENTLY cannot run inside a transaction block`.",
            "lt004",
        ),
        dev(
            "good. I want every rule to have a doc page with a bad and good example, like staticcheck does",
            "pref-rule-docs",
        ),
        ai(
            "Each rule lives in `rules/lt004_index_concurrently.go` with a `Doc` struct (summary, why, bad example, good example); `go generate` renders `docs/rules/LT004.md` from it, and a test fails if a rule has no examples.",
        ),
    ],
    [
        dev(
            "config. teams need to disable rules and set the postgres version. what format",
            "s2-open",
        ),
        ai(
            'A `.lintel.toml` at the repo root, found by walking up from the current directory:\n```toml\npostgres_version = 15\n[rules]\ndisable = ["LT005"]\n[rules.LT002]\nseverity = "warning"\n```\nThe Postgres version matters because e.g. adding a column with a constant default is instant since PG 11.',
            "config-toml",
        ),
        dev(
            "toml ok. what about ignoring one statement",
        ),
        ai(
            'Inline suppression comment on the line before the statement: `-- lintel:ignore LT004 reason="table has 12 rows"`. The reason is required; a suppression without one is itself reported as `LT900 suppression without reason`. Unused suppressions are reported as `LT901` so they don\'t rot.',
            "suppression",
        ),
        dev(
            "love the required reason",
        ),
        ai(
            "Comments aren't in pg_query's AST, so I scan the file with `pg_query.Scan` for `SQL_COMMENT` tokens and map them to the next statement's location. Tested with block comments, comments inside function bodies (ignored) and Windows line endings.",
        ),
        dev(
            "exit codes?",
        ),
        ai(
            "0 = no findings at error severity, 1 = at least one error finding, 2 = usage or config error (bad flag, invalid TOML), 3 = a file failed to parse. Warnings never change the exit code unless `--strict`.",
            "exit-codes",
        ),
        dev(
            "ok those exit codes are final, document them",
            "exit-decided",
        ),
    ],
    [
        dev(
            "bug report from a user: lintel crashes on a migration with a DO block. `panic: runtime error: invalid memory address or nil pointer dereference` in rules/lt003.go:57",
            "s3-open",
        ),
        ai(
            "LT003 looks for `ALTER TABLE ... ALTER COLUMN ... SET NOT NULL` and then reads `stmt.GetAlterTableStmt().GetRelation().GetRelname()`. In a `DO $$ ... $$` block the statement is a `DoStmt` and its body is a string, not parsed — but the panic is from a different path: `ALTER TABLE IF EXISTS ONLY` with no relation schema. `GetRelation()` returned nil because the user's file had `ALTER TABLE` on a partitioned table via `ALTER TABLE ... ATTACH PARTITION`.",
            "crash-cause",
        ),
        dev(
            "so what's the fix",
        ),
        ai(
            "The generated protobuf getters are nil-safe, but we dereferenced `rel.Schemaname` directly on line 57. I replaced direct field access with getters everywhere and added a fuzz test that feeds every statement from Postgres's own regression test SQL files (~58k statements) through all rules and asserts no panic. It found two more nil dereferences, in LT002 and LT005.",
            "nil-fix",
        ),
        dev(
            "and DO blocks? should we lint their content",
        ),
        ai(
            "Their bodies are PL/pgSQL, which pg_query can parse with `ParsePlPgSqlToJSON`, but the statements inside are dynamic strings half the time. I'd report `LT010 DO block not analysed` as info and skip, so users know we didn't look.",
            "do-blocks",
        ),
        dev(
            "fine, info-level LT010, skip content",
            "do-blocks-decided",
        ),
        ai(
            "Added LT010 (info). Released as part of the next patch with the nil fixes.",
        ),
    ],
    [
        dev(
            "people want lintel to know the table sizes. LT004 on a 10 row table is noise",
            "s4-open",
        ),
        ai(
            "Optional live mode: `lintel check --database-url $DATABASE_URL` reads `pg_class.reltuples` for referenced tables, and rules with a size threshold (LT002, LT004) downgrade to info below `small_table_rows` (default 10,000). Without a database URL behaviour is unchanged, so CI without DB access still works.",
            "live-mode",
        ),
        dev(
            "reltuples can be -1 for never-analyzed tables on pg14+",
        ),
        ai(
            "Right, since PG 14 `reltuples = -1` means unknown. In that case we treat the table as large (don't downgrade) and print a hint to run ANALYZE. The connection is read-only (`default_transaction_read_only=on`) with a 5 s statement timeout.",
            "reltuples",
        ),
        dev(
            "ok. also severity default for LT005 should be warning not error, adding FKs NOT VALID is advice",
        ),
        ai(
            "Changed LT005's default severity to warning; the docs page explains the two-step `ADD CONSTRAINT ... NOT VALID` then `VALIDATE CONSTRAINT`.",
            "lt005-warning",
        ),
        dev(
            "also one more: i want the CLI output to look like go vet / compiler output, file:line:col: message, no emoji no colors by default",
            "pref-plain-output",
        ),
        ai(
            'Default formatter prints `migrations/0042_orders.sql:3:1: LT004 create index without CONCURRENTLY on "orders"`; colours only with `--color=always` or when `FORCE_COLOR` is set. No emoji anywhere.',
        ),
    ],
    [
        dev(
            "exit codes: a CI user wants warnings-only runs to exit 0 but parse errors to not fail the build. ugh. can we change?",
            "s5-open",
        ),
        ai(
            "We said those were final, but we're pre-1.0 and the request is reasonable. I'd keep 0/1/2 and change parse failures: instead of exit 3, a parse failure becomes a finding `LT000 could not parse` at error severity, so it's configurable like any rule (`[rules.LT000] severity = \"warning\"`). Exit 3 is removed.",
        ),
        dev(
            "yes, parse errors become LT000 findings, drop exit 3",
            "exit-changed",
        ),
        ai(
            "Done: exit codes are now 0 (clean or only warnings/info), 1 (error findings), 2 (usage/config error). CHANGELOG entry under 0.7.0 'Breaking: exit code 3 removed; parse failures are LT000 findings'.",
        ),
        dev(
            "also someone asked for `lintel fix` to auto-rewrite CREATE INDEX to CONCURRENTLY",
        ),
        ai(
            "Risky: adding CONCURRENTLY requires the statement to be outside a transaction, and many migration tools (Rails, Alembic, Flyway by default) wrap each file in one. An autofix would produce migrations that fail at runtime. I'd offer `--suggest` that prints the rewritten statement plus the tool-specific way to disable the transaction, and not edit files.",
        ),
        dev(
            "agreed, no autofix, suggestions only",
            "no-autofix",
        ),
        ai(
            "`lintel check --suggest` prints a suggestion block under each LT004/LT005 finding, e.g. for Flyway `-- flyway:executeInTransaction=false`, for Alembic `with op.get_context().autocommit_block():`.",
        ),
    ],
    [
        dev(
            "new rule request: renaming a column breaks the running app during deploys. lint that?",
            "s6-open",
        ),
        ai(
            "Yes: `LT006` on `ALTER TABLE ... RENAME COLUMN` and `RENAME TO` (tables), since old app instances still query the old name until the deploy finishes. Advice: expand/contract — add the new column, dual-write, backfill, switch reads, drop the old one in a later release. Same reasoning for `DROP COLUMN` while old code still selects it, which could be `LT007`.",
            "lt006",
        ),
        dev(
            "LT006 yes. LT007 as warning only, many teams drop columns safely after ignoring them in the ORM",
            "lt007-warning",
        ),
        ai(
            "Added LT006 (error) and LT007 (warning) with doc pages; LT007's page mentions Rails `ignored_columns` and Django's two-step removal. Both skip tables created in the same migration file.",
        ),
        dev(
            "also generated columns? `ADD COLUMN ... GENERATED ALWAYS AS (...) STORED` rewrites the table right",
        ),
        ai(
            "It does — a stored generated column is computed for every existing row, so the table is rewritten under an ACCESS EXCLUSIVE lock. I folded that into LT001's checks rather than a new rule, since LT001 is about table rewrites on `ADD COLUMN`.",
            "generated-columns",
        ),
    ],
]

_LINTEL_RULES_ASKS: list[_Ask] = [
    ask("paraphrase", "how does lintel turn migration files into a syntax tree", "pg-query", "pg-query-impl"),
    ask("paraphrase", "how do you silence a single finding and what must you give", "suppression"),
    ask("paraphrase", "which rule catches building an index that blocks writes to the table", "lt004"),
    ask("paraphrase", "why did the linter crash on a partitioned table migration", "crash-cause", "nil-fix"),
    ask("paraphrase", "how can the linter tell if a table is tiny enough not to matter", "live-mode"),
    ask("paraphrase", "what happens when Postgres doesn't know how many rows a table has", "reltuples"),
    ask("entity", "rules/lt003.go:57 nil pointer dereference", "s3-open"),
    ask("entity", "LT900 LT901", "suppression"),
    ask("entity", "LT010 DO block not analysed", "do-blocks"),
    ask("entity", ".lintel.toml postgres_version", "config-toml"),
    ask("entity", "pganalyze/pg_query_go/v5", "pg-query-impl"),
    ask("entity", "--database-url small_table_rows", "live-mode"),
    ask(
        "decision",
        "what did we decide about linting the insides of DO blocks",
        "do-blocks-decided",
        "do-blocks",
    ),
    ask("decision", "should lintel rewrite index creation automatically", "no-autofix"),
    ask("decision", "what severity does the foreign key rule have by default", "lt005-warning"),
    ask(
        "changed",
        "what does lintel do with an unparseable migration file and what exit code results",
        "exit-changed",
        was=("exit-codes",),
    ),
    ask(
        "preference",
        "what should lintel's terminal output look like according to the developer",
        "pref-plain-output",
    ),
    ask("preference", "what documentation does the developer expect for each rule", "pref-rule-docs"),
    ask(
        "temporal",
        "what were we doing in the session about the crash report from a user",
        "s3-open",
        "nil-fix",
    ),
    ask(
        "temporal",
        "what did we work on in the session on configuring rules per repository",
        "s2-open",
        "config-toml",
        "suppression",
    ),
    ask("entity", "LT006 RENAME COLUMN", "lt006"),
    ask("decision", "what severity did we give the dropped-column rule", "lt007-warning"),
    ask("paraphrase", "which check covers adding a stored computed column", "generated-columns"),
]


# ------------------------------------------------------------------ Lintel: packaging and releases
_LINTEL_RELEASE: list[Session] = [
    [
        dev(
            "lintel release pipeline. i want tagged releases to produce binaries for linux/mac/windows, amd64+arm64. goreleaser?",
            "s1-open",
        ),
        ai(
            "GoReleaser is the standard, but cgo (pg_query_go) complicates it: you can't cross-compile cgo from one runner without a C cross toolchain. Options: build each OS on its own GitHub Actions runner and merge with `goreleaser release --split` / `continue` (Pro feature), or use `zig cc` as the cross C compiler from a single Linux runner. zig works well for linux and windows; macOS targets need the macOS SDK, so build those on a macOS runner.",
            "cgo-cross",
        ),
        dev(
            "zig cc for linux+windows, macos runner for darwin. keep it free tier",
            "zig",
        ),
        ai(
            'Workflow `.github/workflows/release.yml`: job `build-linux-windows` on `ubuntu-latest` with `CC="zig cc -target x86_64-linux-musl"` etc. producing static musl binaries; job `build-darwin` on `macos-14` for arm64 and amd64; a final job gathers artifacts, writes `checksums.txt` (SHA-256) and creates the GitHub release. GoReleaser\'s free version runs in each job with `--skip=publish`.',
        ),
        dev(
            "version in the binary? `lintel --version` should print the tag and commit",
        ),
        ai(
            '`-ldflags "-s -w -X main.version={{.Version}} -X main.commit={{.ShortCommit}} -X main.date={{.Date}}"`, and for `go install` builds (no ldflags) we fall back to `debug.ReadBuildInfo()` so `go install github.com/lintel-dev/lintel/cmd/lintel@v0.5.0` still prints v0.5.0.',
            "version-ldflags",
        ),
        dev(
            "license — Apache-2.0 I think, patent grant is nice",
            "license-apache",
        ),
        ai(
            "Added `LICENSE` (Apache-2.0) and SPDX headers `// SPDX-License-Identifier: Apache-2.0` to every Go file, plus a `NOTICE` crediting libpg_query (BSD-3-Clause) which is statically linked.",
        ),
        dev(
            "i really prefer release notes written by hand, not the auto-generated commit dump",
            "pref-handwritten-notes",
        ),
        ai(
            "Set `changelog: disable: true` in `.goreleaser.yaml`; the release body is read from `CHANGELOG.md`'s section for the tag via a small script `scripts/release-notes.sh v0.5.0`, and the release job fails if that section is missing.",
        ),
    ],
    [
        dev(
            "homebrew. how do people install it on mac",
            "s2-open",
        ),
        ai(
            "Start with our own tap: repo `lintel-dev/homebrew-tap` with `Formula/lintel.rb` pointing at the darwin release tarballs and their SHA-256s; users run `brew install lintel-dev/tap/lintel`. The release job updates the formula via a PR using a fine-grained token. homebrew-core has notability requirements (≥ 75 stars, ≥ 30 forks or watchers) we don't meet yet.",
            "tap",
        ),
        dev(
            "own tap for now",
            "tap-decided",
        ),
        ai(
            "Tap repo created; formula bottles aren't needed since we ship prebuilt binaries. `brew test` block runs `lintel --version` and lints a tiny migration with a known LT004 finding.",
        ),
        dev(
            "macOS gatekeeper complains on the downloaded binary for people not using brew: '\"lintel\" cannot be opened because the developer cannot be verified'",
        ),
        ai(
            "That's quarantine on files downloaded by a browser; brew strips it, raw downloads don't. Proper fix is signing with a Developer ID certificate and notarising (`notarytool submit`), which needs the $99/year Apple developer account. Workaround for now: document `xattr -d com.apple.quarantine ./lintel`.",
            "gatekeeper",
        ),
        dev(
            "let's pay for the apple account, people shouldn't need xattr hacks",
            "notarize",
        ),
        ai(
            "Added signing to `build-darwin`: the certificate comes from the `MACOS_CERT_P12` secret into a temporary keychain, `codesign --options runtime --timestamp`, then `xcrun notarytool submit --wait`. Plain binaries can't be stapled, so Gatekeeper checks notarisation online on first run.",
            "signing-impl",
        ),
        dev(
            "windows: scoop or winget?",
        ),
        ai(
            "Scoop is trivial (a JSON manifest in a bucket repo we control, updated by the release job); winget needs a PR to microsoft/winget-pkgs per release with manual review. Start with Scoop, add winget once releases are less frequent.",
        ),
    ],
    [
        dev(
            "windows user: every finding is reported on the wrong line, off by a growing amount",
            "s3-open",
        ),
        ai(
            "Their migration files have CRLF line endings. pg_query's `stmt_location` is a byte offset, and our `lineCol(offset)` counts `\\n` to find the line — that part's fine — but the column was computed in runes after stripping `\\r`, and the line index was built on the stripped text while the offsets refer to the original. So every CRLF shifts the offset by one byte.",
            "crlf",
        ),
        dev(
            "fix it without normalising the user's file",
        ),
        ai(
            "Build the line index on the original bytes (positions of every `\\n`), compute the line by binary search on the offset, and the column as the byte distance to the previous `\\n` converted to runes — `\\r` counts as part of the previous line's end. Added golden tests with CRLF, LF, mixed endings and a UTF-8 BOM.",
            "crlf-fix",
        ),
        dev(
            "BOM too? nice",
        ),
        ai(
            'The BOM broke parsing entirely: pg_query reports `syntax error at or near "\\ufeff"`. We now strip a leading UTF-8 BOM before parsing and add 3 to every offset when mapping back.',
            "bom",
        ),
        dev(
            "and CI should test on windows from now on",
        ),
        ai(
            "Added `windows-latest` to the test matrix (`ubuntu-latest`, `macos-14`, `windows-latest` × Go 1.22 and 1.23). The windows job needs MSYS2's gcc for cgo; setup via `msys2/setup-msys2` adds ~2 minutes.",
            "ci-matrix",
        ),
    ],
    [
        dev(
            "github code scanning integration. users want findings as annotations on PRs",
            "s4-open",
        ),
        ai(
            "Output SARIF 2.1.0: `lintel check --format sarif > lintel.sarif`, then `github/codeql-action/upload-sarif`. Each rule becomes a `reportingDescriptor` with `helpUri` pointing at `docs/rules/LT004.md`; each finding a `result` with `physicalLocation` (uri relative to repo root, startLine, startColumn).",
            "sarif",
        ),
        dev(
            "also ship a github action so it's one line for users",
        ),
        ai(
            "`lintel-dev/lintel-action@v1`: a composite action that downloads the release binary for the runner OS (verifying `checksums.txt`), runs `lintel check` on `inputs.path` (default `migrations/`) and uploads SARIF when `inputs.sarif: true`. Pinned to the lintel version in `inputs.version` with `latest` as default.",
            "action",
        ),
        dev(
            "don't default to latest. reproducible builds. require a version",
            "pref-pin-version",
        ),
        ai(
            "Changed: `inputs.version` is required; the action fails with 'lintel-action: set `version:` (e.g. 0.7.0)' if missing. README examples pin both the action (`@v1`) and lintel (`version: 0.7.0`).",
        ),
        dev(
            "relicensing question: a company wants to vendor lintel but their legal team only approves MIT. the only outside contributor so far is Priya and she agreed. switch to MIT?",
        ),
        ai(
            "With all contributors agreeing, you can relicense going forward. MIT lacks Apache's explicit patent grant, but for a linter the practical risk is low and adoption matters more. Keep the libpg_query BSD notice. Releases before the change stay Apache-2.0.",
        ),
        dev(
            "ok switch to MIT from 0.8.0",
            "license-mit",
        ),
        ai(
            "Replaced `LICENSE` with MIT, SPDX headers now `MIT`, `NOTICE` kept for libpg_query, CHANGELOG 0.8.0 notes the relicensing with Priya's written consent linked from the PR.",
        ),
    ],
    [
        dev(
            "thinking about 1.0. what do security-conscious users expect from a release these days",
            "s5-open",
        ),
        ai(
            "Typical asks: signed checksums (cosign keyless signing of `checksums.txt` via GitHub OIDC, verifiable with `cosign verify-blob`), an SBOM per archive (syft, SPDX JSON), and SLSA provenance from `slsa-github-generator`. None changes the binaries; all are extra release assets.",
            "supply-chain",
        ),
        dev(
            "cosign keyless + syft sboms. skip slsa for now",
            "cosign-decided",
        ),
        ai(
            "Release job now runs `syft packages dir:dist/<archive> -o spdx-json` per archive and `cosign sign-blob --yes checksums.txt --output-signature checksums.txt.sig --output-certificate checksums.txt.pem`. The README has the `cosign verify-blob` command with the expected identity `https://github.com/lintel-dev/lintel/.github/workflows/release.yml@refs/tags/v*`.",
        ),
        dev(
            "and the action should verify the signature before running the binary",
        ),
        ai(
            "lintel-action now installs cosign via `sigstore/cosign-installer`, verifies `checksums.txt` against its signature and certificate identity, then verifies the archive's SHA-256 from it. A mismatch fails the step before anything runs.",
        ),
        dev(
            "what else for 1.0",
        ),
        ai(
            "Freeze the `.lintel.toml` schema and the JSON/SARIF output formats under semver (breaking changes only in 2.0), and document the rule ID policy: IDs are never reused, retired rules stay listed as removed.",
            "semver-policy",
        ),
        dev(
            "oh and we passed 400 stars last week. time to get into homebrew-core instead of our tap?",
        ),
        ai(
            "We now meet the notability bar. I opened the homebrew-core PR adding `lintel` built from source (core doesn't take prebuilt binaries, so the formula depends on `go` at build time). Once merged, `brew install lintel` works without the tap, and the tap's formula becomes a deprecation stub with `deprecate! because: \"has moved to homebrew-core\"`; the release job stops updating it.",
            "homebrew-core",
        ),
    ],
]

_LINTEL_RELEASE_ASKS: list[_Ask] = [
    ask("paraphrase", "why is cross compiling lintel harder than a normal Go program", "cgo-cross"),
    ask("paraphrase", "how does the binary know which release it is", "version-ldflags"),
    ask(
        "changed",
        "how do Mac users install lintel with brew these days",
        "homebrew-core",
        was=("tap-decided", "tap"),
    ),
    ask("paraphrase", "why were findings on Windows pointing at the wrong lines", "s3-open", "crlf"),
    ask("paraphrase", "how do lint results show up as comments on pull requests", "sarif"),
    ask("paraphrase", "what did we do about files that start with a byte order mark", "bom"),
    ask("entity", "com.apple.quarantine xattr", "gatekeeper"),
    ask("entity", "zig cc x86_64-linux-musl", "zig"),
    ask("entity", "lintel-dev/lintel-action@v1", "action"),
    ask("entity", "MACOS_CERT_P12 notarytool", "signing-impl"),
    ask("entity", "syntax error at or near \\ufeff", "bom"),
    ask("entity", "windows-latest msys2 cgo", "ci-matrix"),
    ask("decision", "what did we decide on Apple code signing", "notarize"),
    ask("decision", "how are the darwin binaries built", "zig", "cgo-cross"),
    ask("changed", "what licence is lintel released under", "license-mit", was=("license-apache",)),
    ask(
        "preference",
        "what does the developer want in the GitHub release description",
        "pref-handwritten-notes",
    ),
    ask(
        "preference",
        "should the GitHub action use the newest lintel if no version is given",
        "pref-pin-version",
    ),
    ask(
        "temporal",
        "what were we doing in the session about line numbers being off for a user",
        "s3-open",
        "crlf",
        "crlf-fix",
    ),
    ask(
        "temporal",
        "what did we work on in the session where macOS refused to open the downloaded binary",
        "s2-open",
        "tap",
        "gatekeeper",
    ),
    ask(
        "paraphrase",
        "how can users check that a downloaded release wasn't tampered with",
        "supply-chain",
        "cosign-decided",
    ),
    ask("decision", "did we adopt SLSA provenance for releases", "cosign-decided"),
]


# (slug, project tag, sessions, questions about them)
_CONVERSATIONS: list[tuple[str, str, list[Session], list[_Ask]]] = [
    ("tally-ledger", "tally", _TALLY_LEDGER, _TALLY_LEDGER_ASKS),
    ("tally-app", "tally", _TALLY_APP, _TALLY_APP_ASKS),
    ("tally-onboarding", "tally", _TALLY_ONBOARDING, _TALLY_ONBOARDING_ASKS),
    ("emberfall-netcode", "emberfall", _EMBER_NETCODE, _EMBER_NETCODE_ASKS),
    ("emberfall-matchmaking", "emberfall", _EMBER_MATCHMAKING, _EMBER_MATCHMAKING_ASKS),
    ("emberfall-persistence", "emberfall", _EMBER_PERSISTENCE, _EMBER_PERSISTENCE_ASKS),
    ("silt-ingest", "silt", _SILT_INGEST, _SILT_INGEST_ASKS),
    ("silt-warehouse", "silt", _SILT_WAREHOUSE, _SILT_WAREHOUSE_ASKS),
    ("lintel-rules", "lintel", _LINTEL_RULES, _LINTEL_RULES_ASKS),
    ("lintel-release", "lintel", _LINTEL_RELEASE, _LINTEL_RELEASE_ASKS),
]


def _build() -> tuple[list[LabelledNote], list[LabelledQuery]]:
    notes: list[LabelledNote] = []
    queries: list[LabelledQuery] = []
    for slug, project, sessions, asks in _CONVERSATIONS:
        anchors: dict[str, str] = {}
        for number, session in enumerate(sessions, start=1):
            for index, message in enumerate(session, start=1):
                key = f"{slug}-s{number}-{index:02d}"
                notes.append(
                    LabelledNote(
                        key=key,
                        type="note",
                        status="current",
                        title=f"{slug} · session {number} · {message.role}",
                        body=message.text,
                        tags=[project],
                        supersedes=[],
                    )
                )
                if message.anchor:
                    anchors.setdefault(message.anchor, key)
        queries.extend(
            LabelledQuery(
                query=question.query,
                kind=question.kind,
                relevant=[anchors.get(a, f"{slug}:missing:{a}") for a in question.relevant],
                outranked=[anchors.get(a, f"{slug}:missing:{a}") for a in question.outranked],
            )
            for question in asks
        )
    return notes, queries


NOTES, QUERIES = _build()

# The least each kind must have; the set is the test, so a short kind is a gap, not a detail.
_KIND_MINIMUMS = {
    "paraphrase": 40,
    "entity": 40,
    "decision": 20,
    "changed": 10,
    "preference": 15,
    "temporal": 15,
}


def _session_of(key: str) -> tuple[str, int]:
    conversation, _, rest = key.rpartition("-s")
    return conversation, int(rest.split("-")[0])


def validate() -> dict[str, int]:
    """Assert the set's invariants; return the number of queries of each kind."""
    keys = [n["key"] for n in NOTES]
    assert len(keys) == len(set(keys)), "duplicate note keys"
    assert 500 <= len(NOTES) <= 900, len(NOTES)
    by_key = {n["key"]: n for n in NOTES}
    anchors = [
        (slug, m.anchor) for slug, _, sessions, _ in _CONVERSATIONS for s in sessions for m in s if m.anchor
    ]
    assert len(anchors) == len(set(anchors)), "an anchor names two messages"
    for n in NOTES:
        assert n["type"] == "note" and n["status"] == "current" and not n["supersedes"], n["key"]
        assert n["title"].rsplit(" · ", 1)[-1] in {"user", "assistant"}, n["key"]
        assert 0 < len(n["body"]) <= 1200, (n["key"], len(n["body"]))
    lengths: dict[str, list[int]] = {"user": [], "assistant": []}
    for n in NOTES:
        lengths[n["title"].rsplit(" · ", 1)[-1]].append(len(n["body"]))
    mean = {role: sum(values) / len(values) for role, values in lengths.items()}
    assert mean["assistant"] > 1.5 * mean["user"], mean

    texts = [q["query"] for q in QUERIES]
    assert len(texts) == len(set(texts)), "duplicate queries"
    assert len(QUERIES) >= 150, len(QUERIES)
    counts = {kind: sum(q["kind"] == kind for q in QUERIES) for kind in KINDS}
    assert sum(counts.values()) == len(QUERIES), "a query has an unknown kind"
    for kind, least in _KIND_MINIMUMS.items():
        assert counts[kind] >= least, (kind, counts[kind])
    for q in QUERIES:
        assert 1 <= len(q["relevant"]) <= 3, q["query"]
        assert len(set(q["relevant"])) == len(q["relevant"]), q["query"]
        for key in q["relevant"] + q["outranked"]:
            assert key in by_key, (q["query"], key)
        assert not set(q["relevant"]) & set(q["outranked"]), q["query"]
        if q["kind"] == "changed":
            # The answer is knowledge revised later: every outranked message is from an earlier session.
            assert q["outranked"], q["query"]
            latest = min(_session_of(key)[1] for key in q["relevant"])
            assert all(_session_of(key)[1] < latest for key in q["outranked"]), q["query"]
        else:
            assert q["outranked"] == [], q["query"]
        if q["kind"] == "temporal":
            assert len({_session_of(key) for key in q["relevant"]}) == 1, q["query"]
        if q["kind"] == "preference":
            assert all(by_key[key]["title"].endswith("· user") for key in q["relevant"]), q["query"]
    return counts

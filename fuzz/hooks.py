"""Schemathesis hooks: sign every request by its operation's security scheme, as a merchant or
operator would, so that the fuzzer gets past authentication. The gateway's fuzz script passes the
credentials in the environment; FUZZ_SIGN=0 turns signing off for the unauthenticated pass."""

import hashlib
import hmac
import json
import os
import re
import uuid
from datetime import datetime, timedelta, timezone
from urllib.parse import quote_plus, unquote
from urllib.request import urlopen

import schemathesis

SIGN = os.environ.get("FUZZ_SIGN", "1") == "1"
MERCHANT = os.environ.get("FUZZ_MERCHANT_ID", "")
SECRET = os.environ.get("FUZZ_SECRET_KEY", "").encode()
OPS_TOKEN = os.environ.get("FUZZ_OPS_TOKEN", "")
API_KEY = os.environ.get("FUZZ_API_KEY", "")
# The gateway under test (fuzz/run.ts), for what a hook reads from it.
BASE_URL = os.environ.get("FUZZ_BASE_URL", "").rstrip("/")
# The QR image address's label (QR_IMAGE_LABEL in src/domain/qr-image-address.ts).
QR_IMAGE_LABEL = "mgw:qr-image:v1:"


def hmac_hex(payload: bytes) -> str:
    return hmac.new(SECRET, payload, hashlib.sha256).hexdigest()


def schemes(case) -> set:
    """The operation's security schemes, and its body signature (x-gateway-auth) if it has one."""
    raw = case.operation.definition.raw
    names = {name for requirement in raw.get("security") or [] for name in requirement}
    if raw.get("x-gateway-auth"):
        names.add(raw["x-gateway-auth"])
    return names


# The express checkout's signed fields, in order (design.md, Checkout).
EXPRESS_FIELDS = [
    "amount", "bankid", "buyerAddress", "buyerCity", "buyerCountry", "buyerEmail", "buyerFirstName",
    "buyerLastName", "buyerPhoneNumber", "buyerPincode", "buyerState", "currency", "debitorcredit",
    "isAutoRedirect", "merchantIdentifier", "merchantIpAddress", "mode", "orderId", "paymentOptionTypes",
    "product1Description", "product2Description", "product3Description", "product4Description",
    "productDescription", "productInfo", "purpose", "returnUrl", "shipToAddress", "shipToCity",
    "shipToCountry", "shipToFirstname", "shipToLastname", "shipToPhoneNumber", "shipToPincode",
    "shipToState", "showMobile", "txnDate", "txnType", "zpPayOption",
]


def as_signed_text(value) -> str:
    """The gateway concatenates numbers and strings as JavaScript's String() writes them (1000.0 is
    "1000"); anything else signs as empty."""
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return ""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return str(value)


def form_pairs(fields: dict) -> list:
    """The (name, value) pairs requests posts for a dict: None left out, a list one pair per item."""
    pairs = []
    for k, vs in fields.items():
        for v in vs if isinstance(vs, (list, tuple)) else [vs]:
            if v is not None:
                pairs.append((str(k), v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)))
    return pairs


# What Zaakpay's PHP kits strip from a value before signing it (phpSanitized in src/domain/checkout-checksum.ts).
PHP_SANITIZED = re.compile(r"""[,#(){}<>`!$%^=+|\\:'";~[\]*&]""")
PHP_SANITIZED_URL = re.compile(r"""[,(){}<>`!$%^+|\\'";~[\]*]""")


def php_sanitized(name: str, value: str) -> str:
    return (PHP_SANITIZED_URL if name == "returnUrl" else PHP_SANITIZED).sub("", value)


def positive(case) -> bool:
    return case.meta is not None and case.meta.generation.mode.is_positive


def ledger_bounds(text: str):
    """A ledger date-time as (the first minute it covers, the last): a date covers its whole day."""
    return (text, text) if " " in text else (text + " 00:00", text + " 23:59")


def gateway_now_ms(case) -> int:
    """The gateway's own time (GET /sandbox/v1/time), which time skipping moves forward."""
    with urlopen(BASE_URL + "/sandbox/v1/time", timeout=30) as r:
        return int(json.load(r)["data"]["epochMillis"])


# The sandbox's longest skip (MAX_SKIP_SECONDS in src/api/schemas/sandbox-time.ts).
MAX_SKIP_SECONDS = 366 * 24 * 3600
IST = timezone(timedelta(hours=5, minutes=30))


# The shapes make_valid keeps (the document's patterns, in ASCII).
LEDGER_DATE_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2})?")
IMPORTED_ID = re.compile(r"[A-Za-z0-9]{6,64}")
TOKEN_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
SKIP_UNTIL = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}")


def make_valid(case) -> None:
    """Rules of a schema-valid request that depend on the gateway's state or on another field, which
    the document states in words but JSON Schema cannot: a request the fuzzer generates is made to
    keep them, so a valid one is answered as valid (positive_data_acceptance allows no 400 for it).
    Each rule changes only fields that are schema-valid already, so an invalid request stays
    invalid; it runs on every case, because schemathesis reclassifies a case after before_call (an
    invalid API-key header the signing replaces leaves a valid request)."""
    body = case.body if isinstance(case.body, dict) else None
    op = (case.method.upper(), case.path)
    if op == ("POST", "/api/v1/ledger") and body is not None:
        # endDateTime not before startDateTime: swapping the two always gives a valid range.
        start, end = body.get("startDateTime"), body.get("endDateTime")
        if all(isinstance(t, str) and LEDGER_DATE_TIME.fullmatch(t) for t in (start, end)):
            if ledger_bounds(start)[0] > ledger_bounds(end)[1]:
                body["startDateTime"], body["endDateTime"] = end, start
    elif op == ("POST", "/ops/v1/merchants") and body is not None:
        # An identifier no merchant has yet (6 to 64 letters and digits), so the import is new, not 409.
        mid = body.get("merchantIdentifier")
        if isinstance(mid, str) and IMPORTED_ID.fullmatch(mid):
            body["merchantIdentifier"] = (uuid.uuid4().hex + mid)[:64]
    elif op == ("POST", "/ops/v1/operator-tokens") and body is not None:
        # A name no token has had (names are never reused), so the token is new, not 409.
        name = body.get("name")
        if isinstance(name, str) and TOKEN_NAME.fullmatch(name):
            body["name"] = (uuid.uuid4().hex[:12] + "-" + name)[:64]
    elif op == ("POST", "/sandbox/v1/time/skip") and body is not None:
        # `until` after the gateway's current time and at most a year ahead: the generated text picks
        # how far, the gateway's clock where from.
        until = body.get("until")
        if isinstance(until, str) and SKIP_UNTIL.fullmatch(until):
            ahead = 1 + int(hashlib.sha256(until.encode("utf-8")).hexdigest(), 16) % MAX_SKIP_SECONDS
            moved = datetime.fromtimestamp(gateway_now_ms(case) / 1000 + ahead, IST)
            body["until"] = moved.strftime("%Y-%m-%d %H:%M:%S")
    elif op == ("POST", "/transactU") and body is not None and isinstance(case.query, dict):
        # `data` is JSON text the form's schema can only call a string; v=12 and 13 (mandates) take
        # an RSA-encrypted payerVpa the fuzzer does not make. A request with a valid v is sent as
        # v=8, the custom checkout, with the document's example data under an order id of its own.
        if case.query.get("v") in ("8", "12", "13") and isinstance(body.get("data"), str):
            case.query["v"] = "8"
            body["data"] = json.dumps(
                {
                    "merchantIdentifier": MERCHANT,
                    "returnUrl": "https://shop.example/zaakpay/return",
                    "orderDetail": {
                        "orderId": "fuzz-" + uuid.uuid4().hex,
                        "amount": "25000",
                        "currency": "INR",
                        "productDescription": "Cotton kurta",
                    },
                }
            )


@schemathesis.hook
def before_call(context, case, kwargs):
    make_valid(case)
    if not SIGN:
        return
    names = schemes(case)
    if case.headers is None:
        case.headers = {}
    if "operatorToken" in names:
        case.headers["Authorization"] = f"Bearer {OPS_TOKEN}"
    if "apiKey" in names:
        case.headers["X-API-Key"] = API_KEY
    body = case.body
    if "statusChecksum" in names and isinstance(body, dict):
        body["merchantIdentifier"] = MERCHANT
        # requests serialises json= bodies with json.dumps defaults; sign those exact bytes.
        case.headers["checksum"] = hmac_hex(json.dumps(body, allow_nan=False).encode("utf-8"))
    if "qrChecksum" in names and isinstance(body, dict):
        body["merchantIdentifier"] = MERCHANT
        signed = "".join(as_signed_text(body.get(k)) for k in ("merchantIdentifier", "orderId", "amount", "productDescription"))
        body["checksum"] = hmac_hex(signed.encode("utf-8"))
    if "formChecksum" in names and isinstance(body, dict) and isinstance(body.get("data"), str):
        # The form field `data` holds a JSON refund request; fuzz its values, sign its exact text.
        try:
            data = json.loads(body["data"])
        except ValueError:
            data = None
        if isinstance(data, dict):
            data["merchantIdentifier"] = MERCHANT
            body["data"] = json.dumps(data)
        body["checksum"] = hmac_hex(body["data"].encode("utf-8"))
    if "qrImageSignature" in names and isinstance(case.query, dict):
        # src/domain/qr-image-address.ts: the label, then mid, width and height as the gateway decodes
        # them and data exactly as it stands in the address (requests encodes query values with
        # quote_plus; the gateway's decodeURIComponent leaves a `+` as it is).
        q = case.query
        q["mid"] = MERCHANT
        sent = {k: quote_plus(str(q.get(k, ""))) for k in ("mid", "width", "height", "data")}
        decoded = {k: unquote(v) for k, v in sent.items()}
        signed = QR_IMAGE_LABEL + decoded["mid"] + decoded["width"] + decoded["height"] + sent["data"]
        q["checksum"] = hmac_hex(signed.encode("utf-8"))
    if "settlementReportChecksum" in names and isinstance(body, dict):
        # Zaakpay's Settlement API: `merchantIdentifier,utr_date` (src/domain/settlement-report.ts).
        body["merchantIdentifier"] = MERCHANT
        body["checksum"] = hmac_hex(f"{MERCHANT},{as_signed_text(body.get('utr_date'))}".encode("utf-8"))
    if "zaakChecksum" in names and isinstance(body, dict):
        # Split Payment API: header `zaakchecksum` over the exact body, the master named by the body.
        master = body.get("masterMerchantIdentifier")
        if isinstance(master, dict):
            master.pop("zaakMerchantIdentifier", None)
            master["merchantIdentifier"] = MERCHANT
        case.headers["zaakchecksum"] = hmac_hex(json.dumps(body, allow_nan=False).encode("utf-8"))

    # The checkout's flat forms: the fields as a form (POST) or a query string (GET), signed whole.
    if names & {"expressChecksum", "legacyChecksum"}:
        fields = body if isinstance(body, dict) else case.query if isinstance(case.query, dict) else None
        if fields is not None:
            fields["merchantIdentifier"] = MERCHANT
            fields.pop("checksum", None)
            pairs = form_pairs(fields)
            if "expressChecksum" in names:
                value = dict(pairs)
                signed = "".join(f"{k}={value[k]}&" for k in EXPRESS_FIELDS if value.get(k, "") != "")
            else:
                # Every field but checksum, quoted, in the order sent (the form keeps this dict's
                # order); when a value holds a single quote the gateway takes only the PHP-sanitized
                # values (legacyChecksumTexts in src/domain/checkout-checksum.ts).
                if any("'" in v for _, v in pairs):
                    pairs = [(k, php_sanitized(k, v)) for k, v in pairs]
                signed = "".join(f"'{v}'" for _, v in pairs)
            fields["checksum"] = hmac_hex(signed.encode("utf-8"))


# How the gateway refuses a request it could not authenticate: 401, or (Zaakpay's own APIs and the
# checkout entries, HTTP 200 by contract) one of these texts in the body.
AUTH_REFUSAL = re.compile(
    r"Checksum (received with request is not equal|does not match|was blank)|MerchantIdentifier not valid|Merchant identifier is not valid"
)
# What a signed request proves itself with: every scheme this file signs.
SIGNED_SCHEMES = {
    "statusChecksum", "qrChecksum", "formChecksum", "qrImageSignature", "settlementReportChecksum",
    "zaakChecksum", "expressChecksum", "legacyChecksum", "operatorToken", "apiKey",
}
AUTH_REPORT = os.environ.get("FUZZ_AUTH_REPORT", "")


def text_of(response) -> str:
    """The body as text; a PNG (the QR image) or other bytes that are not UTF-8 hold no refusal."""
    try:
        return response.content.decode("utf-8")
    except UnicodeDecodeError:
        return ""


@schemathesis.check
class signed_requests_authenticate:
    """In the signed pass, every signed operation must get schema-valid requests past authentication:
    an operation whose valid requests were all refused as unauthenticated is signed wrongly here
    (schemathesis's positive_data_acceptance lets any 401 of a secured operation pass). Writes how
    many valid signed requests of each operation got through to FUZZ_AUTH_REPORT (JSON)."""

    def __init__(self):
        self.sent = {}
        self.through = {}

    def after_response(self, ctx, response, case):
        if not SIGN or not positive(case):
            return None
        if not schemes(case) & SIGNED_SCHEMES:
            return None
        label = case.operation.label
        self.sent.setdefault(label, set()).add(case.id)
        refused = response.status_code == 401 or (
            response.status_code == 200 and AUTH_REFUSAL.search(text_of(response)) is not None
        )
        if not refused:
            self.through.setdefault(label, set()).add(case.id)
        return None

    def after_run(self, ctx):
        if not SIGN:
            return
        counts = {label: [len(self.through.get(label, ())), len(ids)] for label, ids in sorted(self.sent.items())}
        if AUTH_REPORT:
            with open(AUTH_REPORT, "w") as f:
                json.dump(counts, f, indent=1)
        never = [label for label, (through, _) in counts.items() if through == 0]
        if never:
            raise AssertionError(
                "valid signed requests never got past authentication (the signature in fuzz/hooks.py is wrong): "
                + ", ".join(never)
            )


# A payment link batch as the gateway reads it (paymentLinkBatchSchema in src/api/schemas/payment-links.ts).
BATCH_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._\-/]{0,63}")
MAX_LINKS_PER_BATCH = 500


@schemathesis.hook
def filter_failure(context, failure, case, response):
    """POST /pl/api/v1/create: the document's request schema shows what a valid entry is, and its
    description (and design.md, HTTP status codes) that each entry is validated on its own: a batch
    that parsed (a batchId, 1 to 500 entries) is answered HTTP 200 with each invalid entry's
    errorDescription. So a request whose only invalid part is inside an entry is answered as the
    document says when that entry failed with its errorDescription; only that accepted-invalid-data
    failure is dropped, and only then. Any other failure of the operation stands."""
    if case.operation.label != "POST /pl/api/v1/create" or type(failure).__name__ != "AcceptedNegativeData":
        return True
    body = case.body if isinstance(case.body, dict) else {}
    details = body.get("details")
    parsed = (
        isinstance(body.get("batchId"), str)
        and BATCH_ID.fullmatch(body["batchId"]) is not None
        and isinstance(details, list)
        and 1 <= len(details) <= MAX_LINKS_PER_BATCH
    )
    if not parsed or response.status_code != 200:
        return True
    try:
        answer = json.loads(response.text)
    except ValueError:
        return True
    entries = answer.get("data") if isinstance(answer, dict) else None
    refused = isinstance(entries, list) and any(
        isinstance(e, dict) and e.get("link") is None and isinstance(e.get("errorDescription"), str) for e in entries
    )
    return not (answer.get("success") is False and refused)

"""Schemathesis hooks: sign every request by its operation's security scheme, as a merchant or
operator would, so that the fuzzer gets past authentication. The gateway's fuzz script passes the
credentials in the environment; FUZZ_SIGN=0 turns signing off for the unauthenticated pass."""

import hashlib
import hmac
import json
import os
from urllib.parse import quote_plus

import schemathesis

SIGN = os.environ.get("FUZZ_SIGN", "1") == "1"
MERCHANT = os.environ.get("FUZZ_MERCHANT_ID", "")
SECRET = os.environ.get("FUZZ_SECRET_KEY", "").encode()
OPS_TOKEN = os.environ.get("FUZZ_OPS_TOKEN", "")
API_KEY = os.environ.get("FUZZ_API_KEY", "")


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
    """The gateway concatenates numbers and strings as sent; anything else signs as empty."""
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return ""
    return str(value)


@schemathesis.hook
def before_call(context, case, kwargs):
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
        q = case.query
        q["mid"] = MERCHANT
        raw = {k: quote_plus(str(q.get(k, ""))) for k in ("mid", "width", "height", "data")}
        q["checksum"] = hmac_hex((raw["mid"] + raw["width"] + raw["height"] + raw["data"]).encode("utf-8"))

    # The checkout's flat forms: the fields as a form (POST) or a query string (GET), signed whole.
    if names & {"expressChecksum", "legacyChecksum"}:
        fields = body if isinstance(body, dict) else case.query if isinstance(case.query, dict) else None
        if fields is not None:
            fields["merchantIdentifier"] = MERCHANT
            fields.pop("checksum", None)
            if "expressChecksum" in names:
                signed = "".join(f"{k}={fields[k]}&" for k in EXPRESS_FIELDS if str(fields.get(k, "")) != "")
            else:
                # Every field but checksum, quoted, in the order sent (the form keeps this dict's order).
                signed = "".join(f"'{v}'" for v in fields.values())
            fields["checksum"] = hmac_hex(signed.encode("utf-8"))

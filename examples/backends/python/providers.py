"""proxy.py's refusal, and Khalti's web checkout, KPG-2, for its PROVIDER=khalti: initiate and lookup, standard library only.

Khalti signs nothing (not the return's query, not its answers), so trust comes from the lookup made with the
secret key; amounts are paisa, integers, computed from the order's text without floats.
"""
import json, os, re, urllib.error, urllib.request

KHALTI = {
    "on": os.environ.get("PROVIDER", "intent") == "khalti",
    "secret": os.environ.get("KHALTI_SECRET_KEY", ""),  # sent as "Authorization: Key ..."; never sent to the browser
    "base": os.environ.get("KHALTI_BASE_URL", "https://dev.khalti.com").rstrip("/"),
    "website": os.environ.get("KHALTI_WEBSITE_URL", ""),  # the shop's address; PUBLIC_URL when empty
    "lifetime": int(os.environ.get("KHALTI_LINK_SECONDS", "3600")),  # Khalti's production default for a payment link
}
# Lookup's statuses; Expired and User canceled come with HTTP 400. Any status not named here is held open (Khalti: ask them).
KHALTI_MAP = {"Initiated": "BOOKED", "Pending": "PENDING", "Completed": "SUCCESS", "Partially Refunded": "SUCCESS", "Refunded": "REVERTED",
              "Expired": "CANCELED", "User canceled": "CANCELED", "Canceled": "CANCELED", "Failed": "FAILED"}


class Refusal(Exception):
    """A request the proxy refuses, or an answer it could not get: its HTTP status, IP-xxx code and message."""

    def __init__(self, http, code, message, headers=None):
        super().__init__(message)
        self.http, self.code, self.headers = http, code, headers or {}


def paisa(rupees):
    """Rupees written as text ("1250.50") in paisa, exactly."""
    m = re.fullmatch(r"(\d{1,9})(?:\.(\d{1,2}))?", rupees)
    if not m:
        raise Refusal(500, "IP-501", "The order's amount is not rupees with at most two decimals.")
    return int(m.group(1)) * 100 + int((m.group(2) or "").ljust(2, "0"))


def khalti_call(op, fields):
    """POSTs JSON to Khalti's epayment API with the secret key; returns (http status, decoded body)."""
    request = urllib.request.Request(f"{KHALTI['base']}/api/v2/epayment/{op}/", json.dumps(fields).encode(),
                                     {"Content-Type": "application/json", "Authorization": f"Key {KHALTI['secret']}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        try:
            return error.code, json.loads(error.read())
        except ValueError:
            pass
    except (OSError, ValueError):
        pass
    raise Refusal(502, "IP-502", "Khalti could not be reached.")


def khalti_initiate(order, public):
    """A Khalti payment of the order's amount in paisa: its pidx is both ids, its payment_url (kept as the deeplink) the page."""
    http, res = khalti_call("initiate", {"return_url": f"{public}/api/pay/return", "website_url": KHALTI["website"] or public,
                                  "amount": paisa(order["amount"]), "purchase_order_id": order["id"], "purchase_order_name": f"Order {order['id']}"})
    if http != 200 or not isinstance(res.get("pidx"), str) or not isinstance(res.get("payment_url"), str):
        status, code = (502, "IP-502") if http >= 500 else (500, "IP-501")
        raise Refusal(status, code, f"Khalti refused the payment: {json.dumps(res)}")
    return {"channel": "web", "booking_id": res["pidx"], "correlation_id": res["pidx"], "deeplink": res["payment_url"]}


def khalti_answer(b):
    """The book answer: Khalti's page, opened by GET."""
    return {"booking_id": b["booking_id"], "correlation_id": b["correlation_id"], "channel": "web", "wallet": "khalti",
            "web_payment": {"url": b["deeplink"], "method": "GET"}}


def khalti_lookup(b):
    """Khalti's lookup of a booking, mapped: only Completed of this booking's paisa is SUCCESS. A 400 with Expired or
    User canceled is the cancellation it reports, not an error."""
    http, v = khalti_call("lookup", {"pidx": b["booking_id"]})
    if not isinstance(v, dict) or v.get("pidx") != b["booking_id"] or not isinstance(v.get("status"), str) \
            or not (http == 200 or (http == 400 and v["status"] in ("Expired", "User canceled"))):
        raise Refusal(502, "IP-502", f"Khalti's lookup did not answer about this payment (HTTP {http}).")
    status = KHALTI_MAP.get(v["status"], "PENDING")
    if status == "SUCCESS" and v.get("total_amount") != paisa(b["amount"]):
        raise Refusal(502, "IP-502", "Khalti's lookup names another amount than this booking's.")
    return status

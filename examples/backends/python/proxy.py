"""A book proxy for <wallet-pay-button> in Python 3, standard library only, SQLite for the store.

Run: python3 proxy.py   (routes: POST /api/pay/{book,status,cancel,order,callback}, GET /api/pay/{handoff,return} on PORT, default 8080)
Reconcile (cron, every minute): python3 proxy.py reconcile
PROVIDER=epay books through eSewa's web checkout, ePay v2, instead of the intent service (EPAY_*: eSewa's test service by default);
PROVIDER=khalti through Khalti's, KPG-2 (providers.py: KHALTI_SECRET_KEY, KHALTI_BASE_URL Khalti's test host by default).
"""
import base64, contextlib, fcntl, hashlib, hmac, html, json, os, re, socket, sqlite3, sys, tempfile, time, urllib.error, urllib.parse, urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from providers import KHALTI, Refusal, khalti_answer, khalti_initiate, khalti_lookup

CFG = {
    "service": os.environ.get("SERVICE_URL", "http://127.0.0.1:4010").rstrip("/"),
    "product": os.environ.get("PRODUCT_CODE", "SANDBOX"),
    "key": os.environ.get("ACCESS_KEY", "sandbox-access-key"),  # never sent to the browser
    "public": os.environ.get("PUBLIC_URL", "http://127.0.0.1:8080").rstrip("/"),
    "redirect": os.environ.get("REDIRECT_URL", "http://127.0.0.1:8080/checkout?order={order_id}"),  # the shopper's way back
    "db": os.environ.get("DB_PATH", os.path.join(os.path.dirname(os.path.abspath(__file__)), "shop.sqlite")),
    "demo_prefix": os.environ.get("DEMO_ORDER_PREFIX", ""),  # stand-in for the shop's own orders
    "demo_amount": os.environ.get("DEMO_ORDER_AMOUNT", "1000"),
    "reconcile_after": int(os.environ.get("RECONCILE_AFTER_SECONDS", "300")),  # the spec's five minutes
    "cancel_after": int(os.environ.get("CANCEL_AFTER_SECONDS", "900")),  # the service's booking lifetime (the sandbox's 15 minutes)
    "ask_every": int(os.environ.get("ORDER_ASK_SECONDS", "3")),  # /order asks the service about a booking at most this often
}
EPAY = {
    "on": os.environ.get("PROVIDER", "intent") == "epay",
    "product": os.environ.get("EPAY_PRODUCT_CODE", "EPAYTEST"),
    "secret": os.environ.get("EPAY_SECRET", "8gBm/:&EnhH.1/q"),  # eSewa's published test secret; never sent to the browser
    "form": os.environ.get("EPAY_FORM_URL", "https://rc-epay.esewa.com.np").rstrip("/") + "/api/epay/main/v2/form",
    "status": os.environ.get("EPAY_STATUS_URL", "https://rc.esewa.com.np").rstrip("/") + "/api/epay/transaction/status/",
    "lifetime": int(os.environ.get("EPAY_SESSION_SECONDS", "1800")),  # eSewa names none for the form: an unknown uuid is expired after this
}
EPAY_MAP = {"COMPLETE": "SUCCESS", "PARTIAL_REFUND": "SUCCESS", "FULL_REFUND": "REVERTED", "PENDING": "PENDING", "AMBIGUOUS": "PENDING"}
# How long a booking stays payable: eSewa's session, Khalti's link, the service's booking. Neither eSewa nor Khalti has a cancel.
LIFETIME, NO_CANCEL = EPAY["lifetime"] if EPAY["on"] else KHALTI["lifetime"] if KHALTI["on"] else CFG["cancel_after"], EPAY["on"] or KHALTI["on"]
EPAY_MUST_SIGN = {"total_amount", "transaction_uuid", "status", "product_code"}
MAX_BODY = 16384
CALLBACK_FIELDS = "product_code,amount,reference_code,correlation_id,status"
FINAL = ("SUCCESS", "FAILED", "CANCELED", "REVERTED")
LOCK_DIR = os.path.join(tempfile.gettempdir(), "wpb-locks-" + hashlib.sha256(CFG["db"].encode()).hexdigest()[:12])


def sign(message, key):
    return base64.b64encode(hmac.new(key.encode(), message.encode(), hashlib.sha256).digest()).decode()


@contextlib.contextmanager
def locked(*names):
    """One request at a time per key and per order (file locks: threads and processes alike); others go on.
    Names share one of 65,536 lock files by their hash: unrelated shoppers wait for each other only when
    their hashes meet (with 256 files, about one pair of books in 60 did)."""
    os.makedirs(LOCK_DIR, exist_ok=True)
    files = []
    try:
        for bucket in sorted({int(hashlib.sha256(n.encode()).hexdigest(), 16) % 65536 for n in names}):
            files.append(open(os.path.join(LOCK_DIR, f"{bucket}.lock"), "a"))
            fcntl.flock(files[-1], fcntl.LOCK_EX)
        yield
    finally:
        for f in reversed(files):
            f.close()


def db():
    conn = sqlite3.connect(CFG["db"], timeout=10, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode = WAL")  # readers go on while one request writes
    conn.execute("CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, amount TEXT NOT NULL, paid INTEGER NOT NULL DEFAULT 0)")
    conn.execute("""CREATE TABLE IF NOT EXISTS bookings (idem_key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, order_id TEXT NOT NULL,
        channel TEXT NOT NULL, booking_id TEXT NOT NULL UNIQUE, correlation_id TEXT NOT NULL UNIQUE, deeplink TEXT NOT NULL,
        amount TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL DEFAULT 0)""")
    have = {c[1] for c in conn.execute("PRAGMA table_info(bookings)")}  # reconcile's next ask, its interval, a cancel's recheck end, /order's last ask:
    for column in {"next_check_at", "check_every", "recheck_until", "asked_at"} - have:  # added once to an older file's store
        with contextlib.suppress(sqlite3.OperationalError):  # another process added it first
            conn.execute(f"ALTER TABLE bookings ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0")
    return conn


def service(op, fields, signed):
    """POSTs signed JSON to the service; returns (http status, decoded body)."""
    fields = dict(fields, signed_field_names=signed)
    fields["signature"] = sign(",".join(f"{n}={v if isinstance(v, str) else json.dumps(v)}" for n, v in ((n, fields[n]) for n in signed.split(","))), CFG["key"])
    request = urllib.request.Request(f"{CFG['service']}/api/client/intent/payment/{op}", json.dumps(fields).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with contextlib.suppress(ValueError):
            return error.code, json.loads(error.read())
    except (OSError, ValueError):
        pass
    raise Refusal(502, "IP-502", "The payment service could not be reached.")


def find_order(conn, order_id):
    """The shop's own order (its amount as written), or None. The browser's order object is only a reference."""
    if not isinstance(order_id, str) or not order_id:
        return None
    if CFG["demo_prefix"] and order_id.startswith(CFG["demo_prefix"]):
        conn.execute("INSERT OR IGNORE INTO orders (id, amount) VALUES (?, ?)", (order_id, CFG["demo_amount"]))
    return conn.execute("SELECT id, amount, paid FROM orders WHERE id = ?", (order_id,)).fetchone()


def record(conn, booking, status, now=None):
    """Records a final status once: a final status stays, but a refund (REVERTED) may follow a SUCCESS,
    and a SUCCESS may follow a CANCELED. So a SUCCESS replayed after its refund, or a FAILED after a SUCCESS, changes nothing.
    A CANCELED is asked about again by reconcile for the booking's lifetime: a payment may land after it."""
    changed = conn.execute("""UPDATE bookings SET status = ? WHERE booking_id = ?
        AND (status IN ('BOOKED', 'PENDING') OR (status = 'SUCCESS' AND ? = 'REVERTED'))""", (status, booking["booking_id"], status)).rowcount
    if changed and status == "CANCELED":
        conn.execute("UPDATE bookings SET recheck_until = ?, next_check_at = 0, check_every = 0 WHERE booking_id = ?", (int(now or time.time()) + LIFETIME, booking["booking_id"]))
    if not changed and status == "SUCCESS":
        # Paid after our cancel (the wallet took the money anyway): delivered, never dropped, or the shopper pays twice.
        changed = conn.execute("UPDATE bookings SET status = 'SUCCESS' WHERE booking_id = ? AND status = 'CANCELED'", (booking["booking_id"],)).rowcount
        if changed and find_order(conn, booking["order_id"])["paid"]:
            print(f"duplicate payment: {booking['booking_id']} paid order {booking['order_id']} again; refund one", file=sys.stderr, flush=True)
    if changed and status in ("SUCCESS", "REVERTED"):
        conn.execute("UPDATE orders SET paid = ? WHERE id = ?", (1 if status == "SUCCESS" else 0, booking["order_id"]))


def epay_answer(b):
    """The eleven fields eSewa's form takes; total_amount is the sum (no tax or charges here), signed as posted."""
    uuid, total = b["booking_id"], b["amount"]
    fields = {"amount": total, "tax_amount": "0", "product_service_charge": "0", "product_delivery_charge": "0", "total_amount": total,
              "transaction_uuid": uuid, "product_code": EPAY["product"], "success_url": f"{CFG['public']}/api/pay/return",
              "failure_url": f"{CFG['public']}/api/pay/return?booking_id={uuid}", "signed_field_names": "total_amount,transaction_uuid,product_code"}
    fields["signature"] = sign(f"total_amount={total},transaction_uuid={uuid},product_code={EPAY['product']}", EPAY["secret"])
    return {"booking_id": uuid, "correlation_id": uuid, "channel": "web", "wallet": "esewa", "web_payment": {"url": EPAY["form"], "method": "POST", "fields": fields}}


def book_answer(b):
    if EPAY["on"] or KHALTI["on"]:
        return epay_answer(b) if EPAY["on"] else khalti_answer(b)
    data = {"booking_id": b["booking_id"], "correlation_id": b["correlation_id"], "channel": b["channel"]}
    if b["channel"] == "app":
        return dict(data, deeplink=b["deeplink"])
    fields = {"booking_id": b["booking_id"], "correlation_id": b["correlation_id"], "signed_field_names": "booking_id,correlation_id"}
    fields["signature"] = sign(f"booking_id={b['booking_id']},correlation_id={b['correlation_id']}", CFG["key"])
    return dict(data, web_payment={"url": f"{CFG['service']}/web/pay", "method": "POST", "fields": fields})


def order_state(conn, body):
    """Paid: a verified SUCCESS in the records (not refunded since), or one the service says now of a booking still open (recorded): the shopper
    is often back, in another browser, before the callback, and ePay v2 sends none. Each booking is asked at most once per ORDER_ASK_SECONDS."""
    if set(body) != {"order"} or not isinstance(body["order"], dict):
        raise Refusal(422, "IP-422", 'Send exactly {"order": {...}}, the order as sent to /book.')
    order = find_order(conn, body["order"].get("id"))
    if order is None:
        raise Refusal(422, "IP-424", "This order is unknown or cannot be paid.")
    now = int(time.time())
    for b in [] if order["paid"] else conn.execute("SELECT * FROM bookings WHERE order_id = ? AND status IN ('BOOKED', 'PENDING')", (order["id"],)).fetchall():
        if conn.execute("UPDATE bookings SET asked_at = ? WHERE booking_id = ? AND asked_at <= ?", (now, b["booking_id"], now - CFG["ask_every"])).rowcount:
            with contextlib.suppress(Refusal):  # out of reach: the records answer, and the next ask may know
                ask_service(conn, b)
    order = find_order(conn, order["id"])
    return {"paid": True, "status": "SUCCESS"} if order["paid"] else {"paid": False}


def book(conn, body, key):
    if set(body) - {"channel", "order", "handoff"} or not {"channel", "order"} <= set(body):
        raise Refusal(422, "IP-422", 'Send exactly {"channel", "order"} (and "handoff" on a phone hand-off); never an amount.')
    if body["channel"] not in ("app", "web") or not isinstance(body["order"], dict):
        raise Refusal(422, "IP-422", '"channel" must be "app" or "web", "order" an object.')
    if "handoff" in body and (body["handoff"] is not True or body["channel"] != "app"):
        raise Refusal(422, "IP-422", '"handoff" may only be true, on an "app" booking.')
    if not re.fullmatch(r"[A-Za-z0-9_.:-]{16,128}", key or ""):
        raise Refusal(422, "IP-422", 'Idempotency-Key must be 16 to 128 letters, digits, "-", "_", "." or ":".')
    order = find_order(conn, body["order"].get("id"))
    if order is None:
        raise Refusal(422, "IP-424", "This order is unknown or cannot be paid.")
    fingerprint = json.dumps([body["channel"], body["order"], body.get("handoff", False)], sort_keys=True)
    with locked("key:" + key, "order:" + order["id"]):
        order = find_order(conn, order["id"])  # read again under the lock: paid meanwhile?
        row = conn.execute("SELECT * FROM bookings WHERE idem_key = ?", (key,)).fetchone()
        if row:
            if row["fingerprint"] != fingerprint:
                raise Refusal(409, "IP-409", "This Idempotency-Key was used for another order or channel.")
            return book_answer(row)
        if order["paid"]:
            raise Refusal(409, "IP-412", "This order is already paid.")
        for old in conn.execute("SELECT * FROM bookings WHERE order_id = ? AND status IN ('BOOKED', 'PENDING')", (order["id"],)).fetchall():
            # A new attempt replaces an open one, unless paid meanwhile; with no cancel at eSewa or Khalti, here (a later payment is still delivered).
            if NO_CANCEL:
                status = ask_service(conn, old)["status"]
                status = "CANCELED" if status in ("BOOKED", "PENDING") else status
            else:
                _, st = service("status", {"booking_id": old["booking_id"], "product_code": CFG["product"], "correlation_id": old["correlation_id"]}, "booking_id,product_code,correlation_id")
                status = st.get("data", {}).get("status", "BOOKED")
                if status in ("BOOKED", "PENDING"):
                    http, _ = service("cancel", {"booking_id": old["booking_id"], "product_code": CFG["product"]}, "booking_id,product_code")
                    status = "CANCELED" if http == 200 else status
            record(conn, old, status)
            if status == "SUCCESS":
                raise Refusal(409, "IP-412", "This order is already paid.")
        amount = float(order["amount"]) if "." in order["amount"] else int(order["amount"])
        # Derived from the key and the content: a retry after a crash gets the service's first booking back.
        uuid = "tx_" + hashlib.sha256(f"{key}|{fingerprint}|{order['amount']}".encode()).hexdigest()[:40]
        # The phone of a hand-off has no session here: it returns to a page that asks the service, not to the checkout.
        if EPAY["on"]:  # no call: the booking is the signed form, its uuid letters, digits and "-"
            made = {"channel": "web", "booking_id": "tx-" + uuid[3:], "correlation_id": "tx-" + uuid[3:], "deeplink": ""}
        elif KHALTI["on"]:
            made = khalti_initiate(order, CFG["public"])
        else:
            back = f"{CFG['public']}/api/pay/handoff" if body.get("handoff") else CFG["redirect"].replace("{order_id}", urllib.parse.quote(order["id"], safe=""))
            http, res = service("book", {"product_code": CFG["product"], "amount": amount, "transaction_uuid": uuid,
                                         "callback_url": f"{CFG['public']}/api/pay/callback", "redirect_url": back,
                                         "properties": {"order_id": order["id"]}}, "product_code,amount,transaction_uuid")
            if http != 200:
                raise Refusal(502 if http >= 500 else 500, "IP-502" if http >= 500 else "IP-501", f"The payment service refused the booking: {res.get('error_message', http)}")
            made = dict(channel=body["channel"], **{n: res["data"][n] for n in ("booking_id", "correlation_id", "deeplink")})
        row = dict(made, idem_key=key, fingerprint=fingerprint, order_id=order["id"], amount=order["amount"], status="BOOKED", created_at=int(time.time()))
        conn.execute("""INSERT INTO bookings (idem_key, fingerprint, order_id, channel, booking_id, correlation_id, deeplink, amount, status, created_at)
            VALUES (:idem_key, :fingerprint, :order_id, :channel, :booking_id, :correlation_id, :deeplink, :amount, :status, :created_at)""", row)
        return book_answer(row)


def own_booking(conn, body):
    """The booking a status or cancel names: both ids must belong to a booking made here."""
    ok = lambda v: isinstance(v, str) and 0 < len(v) <= 128
    # The element also sends the booking's order and the book answer's receipt (kits that lost a booking
    # use them); this proxy keeps every booking, so it checks their types and reads the ids alone.
    if (set(body) - {"order", "receipt"} != {"booking_id", "correlation_id"} or not ok(body["booking_id"]) or not ok(body["correlation_id"])
            or not isinstance(body.get("order", {}), dict) or not isinstance(body.get("receipt", ""), str)):
        raise Refusal(422, "IP-422", 'Send {"booking_id", "correlation_id"} (non-empty strings), and "order" (an object) and "receipt" (a string) if kept.')
    row = conn.execute("SELECT * FROM bookings WHERE booking_id = ? AND correlation_id = ?", (body["booking_id"], body["correlation_id"])).fetchone()
    if row is None:
        raise Refusal(404, "IP-404", "No booking with this booking_id and correlation_id was made here.")
    return row


def ask_epay(conn, b, now=None):
    """eSewa's status check of a booking made here, mapped and, when final, recorded: only its COMPLETE fulfils."""
    now = time.time() if now is None else now
    query = urllib.parse.urlencode({"product_code": EPAY["product"], "total_amount": b["amount"], "transaction_uuid": b["booking_id"]})
    try:
        with urllib.request.urlopen(f"{EPAY['status']}?{query}", timeout=10) as response:
            v = json.loads(response.read())
    except (OSError, ValueError):
        raise Refusal(502, "IP-502", "eSewa's status check could not be reached.")
    if not isinstance(v, dict) or v.get("transaction_uuid") != b["booking_id"] or v.get("product_code") != EPAY["product"]:
        raise Refusal(502, "IP-502", "eSewa's status check answered about another transaction.")
    status = dict(EPAY_MAP, **{  # NOT_FOUND: not posted yet, or the session ended at eSewa; CANCELED: reversed by eSewa
        "NOT_FOUND": "CANCELED" if b["status"] == "CANCELED" or now > b["created_at"] + EPAY["lifetime"] else "BOOKED",
        "CANCELED": "REVERTED" if b["status"] == "SUCCESS" else "CANCELED"}).get(v.get("status"))
    if status is None:
        raise Refusal(502, "IP-502", "eSewa's status check gave no status.")
    if status in FINAL:
        record(conn, b, status, now)
    return {"status": status}


def read_epay_return(conn, query):
    """eSewa's success redirect: its data (base64 JSON) read from the raw text (1000.0 stays 1000.0, a "," dropped from
    total_amount) and checked in constant time. A hint only: the booking it names is then asked of eSewa's status check."""
    m = re.search(r"(?:^|[?&])data=([^&?]*)", query)
    try:
        data = urllib.parse.unquote(m.group(1)).replace(" ", "+")
        v = json.loads(base64.b64decode(data + "=" * (-len(data) % 4), validate=True).decode(), parse_float=str, parse_int=str)
        signed = v["signed_field_names"].split(",")
        message = ",".join(f"{n}={v[n].replace(',', '') if n == 'total_amount' else v[n]}" for n in signed)
        ok = EPAY_MUST_SIGN <= set(signed) and all(isinstance(v[n], str) for n in EPAY_MUST_SIGN | {"signature"})
    except (AttributeError, ValueError, TypeError, KeyError):
        raise Refusal(400, "IP-400", "Not eSewa's return.")
    if not ok or not hmac.compare_digest(sign(message, EPAY["secret"]).encode(), v["signature"].encode()) or v["product_code"] != EPAY["product"]:
        raise Refusal(400, "IP-400", "Not eSewa's return: the signature does not match.")
    b = conn.execute("SELECT * FROM bookings WHERE booking_id = ?", (v["transaction_uuid"],)).fetchone()
    if b is None or float(v["total_amount"].replace(",", "")) != float(b["amount"]):
        raise Refusal(404, "IP-404", "No such payment here.")
    return b


def return_page(conn, query):
    """Where eSewa sends the shopper back (success with data, failure with our booking_id), or Khalti (an unsigned query: a hint
    naming a pidx made here): asks eSewa or Khalti's lookup, then the checkout."""
    if "data=" in query and EPAY["on"]:
        b = read_epay_return(conn, query)
    else:
        named = urllib.parse.parse_qs(query).get("pidx" if KHALTI["on"] else "booking_id", [""])[0]
        b = conn.execute("SELECT * FROM bookings WHERE booking_id = ?", (named,)).fetchone()
        if b is None:
            raise Refusal(404, "IP-404", "No such payment here.")
    status = ask_service(conn, b)["status"]
    if json.loads(b["fingerprint"])[2]:  # a hand-off: the phone has no checkout session
        return 200, HANDOFF_TEXT.get(status, "Not paid. Go back to your computer to try again."), None
    return 303, "", CFG["redirect"].replace("{order_id}", urllib.parse.quote(b["order_id"], safe=""))


def ask_service(conn, b, now=None):
    """The service's status of a booking made here; a final one is recorded."""
    if EPAY["on"]:
        return ask_epay(conn, b, now)
    if KHALTI["on"]:
        res = {"data": {"status": khalti_lookup(b)}}
    else:
        http, res = service("status", {"booking_id": b["booking_id"], "product_code": CFG["product"], "correlation_id": b["correlation_id"]}, "booking_id,product_code,correlation_id")
        if http != 200:
            raise Refusal(502, "IP-502", "The payment service did not give the status.")
    if res["data"]["status"] in FINAL:
        record(conn, b, res["data"]["status"], now)
    return res["data"]


def status(conn, body):
    b = own_booking(conn, body)
    st = ask_service(conn, b)
    return {"booking_id": b["booking_id"], "correlation_id": b["correlation_id"], "status": st["status"], "updated_at": st.get("updated_at")}


def reconcile(conn, now):
    """The spec's five-minute rule and after: asks about each booking open RECONCILE_AFTER_SECONDS after it was made, a PENDING one every 1, 2, 4 ... 60
    minutes; cancels one open past LIFETIME (eSewa has no cancel: its NOT_FOUND then is the CANCELED); asks about a cancelled one again for LIFETIME."""
    rows = conn.execute("""SELECT * FROM bookings WHERE next_check_at <= ? + 10 AND ((status IN ('BOOKED', 'PENDING') AND created_at <= ?)
        OR (status = 'CANCELED' AND recheck_until > 0))""", (now, now - CFG["reconcile_after"])).fetchall()
    for b in rows:
        try:
            print(f"{b['booking_id']}: {reconcile_one(conn, b, now)}", flush=True)
        except Refusal as r:
            print(f"{b['booking_id']}: {r}", file=sys.stderr, flush=True)
    return len(rows)


def back_off(conn, b, now, until):
    """Asks a booking less and less often: 1, 2, 4 ... 60 minutes apart, and at `until` at the latest."""
    every = min(3600, max(60, b["check_every"] * 2))
    conn.execute("UPDATE bookings SET check_every = ?, next_check_at = ? WHERE booking_id = ?", (every, min(now + every, until), b["booking_id"]))


def reconcile_one(conn, b, now):
    """One booking of a reconcile pass (a cron run a few seconds early still asks: the 10 s above)."""
    status = ask_service(conn, b, now)["status"]
    if b["status"] == "CANCELED":  # a recheck; a SUCCESS is recorded (delivered, never dropped)
        if status == "SUCCESS" or now >= b["recheck_until"]:
            conn.execute("UPDATE bookings SET recheck_until = 0 WHERE booking_id = ?", (b["booking_id"],))
        else:
            back_off(conn, b, now, b["recheck_until"])
        return status
    if status not in ("BOOKED", "PENDING"):
        return status
    ends = b["created_at"] + LIFETIME
    if now >= ends and not NO_CANCEL:  # left open past the service's lifetime: cancelled, so no stale screen pays it
        http, res = service("cancel", {"booking_id": b["booking_id"], "product_code": CFG["product"]}, "booking_id,product_code")
        if http == 200:
            record(conn, b, "CANCELED", now)
            return "CANCELED"
        if res.get("code") == "IP-410":  # processed meanwhile: what it became is recorded
            return ask_service(conn, b, now)["status"]
        raise Refusal(502, "IP-502", "The payment service did not cancel the booking.")
    if status == "PENDING":
        back_off(conn, b, now, ends if now < ends else now + 3600)
    return status


HANDOFF_TEXT = {"SUCCESS": "Payment received. Go back to your computer: the order is paid there.",
                "BOOKED": "Not paid yet. Finish in the wallet app, or go back to your computer.",
                "PENDING": "The payment is being processed. Go back to your computer to see the result."}


def handoff_page(conn, query):
    """Where the phone of a QR hand-off lands: it asks the service (never the status= of its address) and shows no order."""
    booking_id = urllib.parse.parse_qs(query).get("booking_id", [""])[0]
    b = conn.execute("SELECT * FROM bookings WHERE booking_id = ?", (booking_id,)).fetchone()
    if b is None:
        return 404, "No such payment here."
    st = ask_service(conn, b)["status"]
    return 200, HANDOFF_TEXT.get(st, "Not paid. Go back to your computer to try again.")


def cancel(conn, body):
    b = own_booking(conn, body)
    if NO_CANCEL:  # no cancel at eSewa or Khalti: a paid one is refused, an open one ends here (and a later payment is still delivered)
        if ask_service(conn, b)["status"] not in ("BOOKED", "PENDING"):
            raise Refusal(409, "IP-410", "This booking is already processed.")
    else:
        http, res = service("cancel", {"booking_id": b["booking_id"], "product_code": CFG["product"]}, "booking_id,product_code")
        if res.get("code") == "IP-410":
            raise Refusal(409, "IP-410", "This booking is already processed.")
        if http != 200:
            raise Refusal(502, "IP-502", "The payment service did not cancel the booking.")
    record(conn, b, "CANCELED")
    return {"booking_id": b["booking_id"], "status": "CANCELED"}


def callback(conn, raw):
    """The service's callback, verified on the raw body: numbers keep their text (1000.0 stays 1000.0)."""
    v = json.loads(raw, parse_float=str, parse_int=str)
    names = {"product_code", "amount", "reference_code", "correlation_id", "status", "signed_field_names", "signature"}
    if not isinstance(v, dict) or set(v) != names or v["signed_field_names"] != CALLBACK_FIELDS or not all(isinstance(v[n], str) for n in names):
        raise Refusal(422, "IP-422", "Callback refused: not the service's callback fields.")
    message = ",".join(f"{n}={v[n]}" for n in CALLBACK_FIELDS.split(","))
    if not hmac.compare_digest(sign(message, CFG["key"]), v["signature"]):
        raise Refusal(401, "IP-400", "Callback refused: the signature does not match.")
    if v["product_code"] != CFG["product"]:
        raise Refusal(401, "IP-401", "Callback refused: not this merchant's product code.")
    b = conn.execute("SELECT * FROM bookings WHERE correlation_id = ?", (v["correlation_id"],)).fetchone()
    if b is None:
        raise Refusal(404, "IP-404", "Callback refused: no booking with this correlation_id was made here.")
    if v["status"] in FINAL:
        record(conn, b, v["status"])  # a replay or a late status is answered 2xx and changes nothing
    return {"correlation_id": v["correlation_id"], "status": v["status"]}


class Handler(BaseHTTPRequestHandler):
    def send(self, http, headers, data=b""):
        self.send_response(http)
        for name, value in dict(headers, **{"Cache-Control": "no-store", "Content-Length": str(len(data))}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def answer(self, http, body, headers=None):
        self.send(http, {"Content-Type": "application/json; charset=utf-8", "X-Content-Type-Options": "nosniff", **(headers or {})}, json.dumps(body, ensure_ascii=False).encode())

    def page(self, http, text, location=None):
        if location:
            return self.send(303, {"Location": location})
        data = f'<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Payment</title><p>{html.escape(text)}</p>'
        self.send(http, {"Content-Type": "text/html; charset=utf-8", "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'"}, data.encode())

    def linger(self):
        """After refusing a body it did not read: the rest read and dropped (2 s, 64 MiB at most), so the client reads the refusal, not a reset."""
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(0.5)
            deadline, dropped = time.monotonic() + 2, 0
            while time.monotonic() < deadline and dropped < 64 * 1024 * 1024:
                chunk = self.connection.recv(64 * 1024)
                if not chunk:
                    break
                dropped += len(chunk)
        except OSError:
            pass

    def read_body(self):
        """The request body within bounds: a Content-Length of digits only, at most MAX_BODY, UTF-8, JSON nested sanely."""
        length = self.headers.get("Content-Length") or "0"
        if self.headers.get("Transfer-Encoding") or not re.fullmatch(r"\d{1,9}", length):
            self.close_connection = True
            raise Refusal(422, "IP-422", "Send the body with a Content-Length of digits only.")
        if int(length) > MAX_BODY:
            self.close_connection = True  # the unread body must not be taken for the next request
            raise Refusal(413, "IP-413", f"The body is larger than {MAX_BODY} bytes.")
        self.connection.settimeout(10)  # a body sent drop by drop is not waited for forever
        raw = self.rfile.read(int(length))
        try:
            text = raw.decode("utf-8")
            return text, json.loads(text)
        except (UnicodeDecodeError, ValueError, RecursionError):
            return raw, None

    def handle_any(self):
        path, _, query = self.path.partition("?")
        route = path.rstrip("/").rsplit("/", 1)[-1]
        try:
            if (route == "handoff" or (route == "return" and NO_CANCEL)) and self.command == "GET":
                conn = db()
                try:
                    return self.page(*(handoff_page(conn, query) if route == "handoff" else return_page(conn, query)))
                except Refusal as r:
                    return self.page(r.http, str(r))
                finally:
                    conn.close()
            if route not in ("book", "status", "cancel", "order", "callback"):
                raise Refusal(404, "IP-444", "No such endpoint; use POST .../book, .../status, .../cancel, .../order.")
            if self.command != "POST":
                raise Refusal(405, "IP-405", f"Use POST for /{route}.", {"Allow": "POST"})
            if not re.fullmatch(r'application/json\s*(;\s*charset="?utf-?8"?\s*)?', (self.headers.get("Content-Type") or "").strip().lower()):
                raise Refusal(415, "IP-415", "Send the body as application/json in UTF-8.")
            raw, body = self.read_body()
            if not isinstance(body, dict):
                raise Refusal(422, "IP-422", "The body must be a JSON object.")
            conn = db()
            try:
                data = {"book": lambda: book(conn, body, self.headers.get("Idempotency-Key")), "status": lambda: status(conn, body),
                        "cancel": lambda: cancel(conn, body), "order": lambda: order_state(conn, body),
                        "callback": lambda: callback(conn, raw)}[route]()
            finally:
                conn.close()
            self.answer(200, {"code": "IP-210" if route == "cancel" else "IP-201", "message": "OK", "data": data})
        except Refusal as r:
            self.answer(r.http, {"code": r.code, "error_message": str(r)}, r.headers)
            if self.close_connection:
                self.linger()
        except (TimeoutError, OSError):
            self.close_connection = True  # the client stopped sending: nothing to answer
        except Exception as error:  # noqa: BLE001 - the shopper gets an envelope, the log the cause
            self.log_error("%r", error)
            self.answer(500, {"code": "IP-500", "error_message": "The server could not handle this request."})

    do_POST = do_GET = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = handle_any


if __name__ == "__main__" and sys.argv[1:] == ["reconcile"]:
    # RECONCILE_NOW (epoch seconds) is the clock of a test's pass, e.g. a sandbox's moved one; else now.
    print(f"reconciled {reconcile(db(), int(os.environ.get('RECONCILE_NOW') or time.time()))} booking(s)", flush=True)
elif __name__ == "__main__":
    db().close()
    server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8080"))), Handler)
    print(f"book proxy on http://127.0.0.1:{server.server_address[1]}/api/pay", flush=True)
    server.serve_forever()

<?php
// A book proxy for <wallet-pay-button> in plain PHP 8: no framework, SQLite through PDO.
// Run: PHP_CLI_SERVER_WORKERS=4 php -S 127.0.0.1:8080 proxy.php   (routes: POST /api/pay/{book,status,cancel,order,callback}, GET /api/pay/{handoff,return})
// Reconcile (cron, every minute): php proxy.php reconcile
// PROVIDER=epay books through eSewa's web checkout, ePay v2, instead of the intent service (EPAY_*: eSewa's test service by default).
// PROVIDER=khalti books through Khalti's web checkout, KPG-2 (KHALTI_SECRET_KEY; KHALTI_BASE_URL: Khalti's test host by default).
declare(strict_types=1);

$cfg = [
    'service' => rtrim(getenv('SERVICE_URL') ?: 'http://127.0.0.1:4010', '/'),
    'product' => getenv('PRODUCT_CODE') ?: 'SANDBOX',
    'key' => getenv('ACCESS_KEY') ?: 'sandbox-access-key',          // never sent to the browser
    'public' => rtrim(getenv('PUBLIC_URL') ?: 'http://127.0.0.1:8080', '/'),
    'redirect' => getenv('REDIRECT_URL') ?: 'http://127.0.0.1:8080/checkout?order={order_id}',  // the shopper's way back
    'db' => getenv('DB_PATH') ?: __DIR__ . '/shop.sqlite',
    'demo_prefix' => getenv('DEMO_ORDER_PREFIX') ?: '',              // stand-in for the shop's own orders
    'demo_amount' => getenv('DEMO_ORDER_AMOUNT') ?: '1000',
    'reconcile_after' => (int) (getenv('RECONCILE_AFTER_SECONDS') === false ? 300 : getenv('RECONCILE_AFTER_SECONDS')),  // the spec's five minutes
    'cancel_after' => (int) (getenv('CANCEL_AFTER_SECONDS') ?: 900),      // the service's booking lifetime (the sandbox's 15 minutes)
    'ask_every' => (int) (getenv('ORDER_ASK_SECONDS') ?: 3),              // /order asks the service about a booking at most this often
];
$epay = [
    'on' => getenv('PROVIDER') === 'epay',
    'product' => getenv('EPAY_PRODUCT_CODE') ?: 'EPAYTEST',
    'secret' => getenv('EPAY_SECRET') ?: '8gBm/:&EnhH.1/q',                  // eSewa's published test secret; never sent to the browser
    'form' => rtrim(getenv('EPAY_FORM_URL') ?: 'https://rc-epay.esewa.com.np', '/') . '/api/epay/main/v2/form',
    'status' => rtrim(getenv('EPAY_STATUS_URL') ?: 'https://rc.esewa.com.np', '/') . '/api/epay/transaction/status/',
    'lifetime' => (int) (getenv('EPAY_SESSION_SECONDS') ?: 1800),          // eSewa names none for the form: an unknown uuid is expired after this
];
$cfg['epay'] = $epay;
$cfg['khalti'] = [
    'on' => getenv('PROVIDER') === 'khalti',
    'secret' => getenv('KHALTI_SECRET_KEY') ?: '',                             // sent as "Authorization: Key ..."; never sent to the browser
    'base' => rtrim(getenv('KHALTI_BASE_URL') ?: 'https://dev.khalti.com', '/'),
    'website' => getenv('KHALTI_WEBSITE_URL') ?: $cfg['public'],
    'lifetime' => (int) (getenv('KHALTI_LINK_SECONDS') ?: 3600),            // Khalti's production default for a payment link
];
const EPAY_MAP = ['COMPLETE' => 'SUCCESS', 'PARTIAL_REFUND' => 'SUCCESS', 'FULL_REFUND' => 'REVERTED', 'PENDING' => 'PENDING', 'AMBIGUOUS' => 'PENDING'];
require __DIR__ . '/khalti.php';   // PROVIDER=khalti's calls, lookup and return page
const MAX_BODY = 16384;
const CALLBACK_FIELDS = 'product_code,amount,reference_code,correlation_id,status';
const FINAL_STATUSES = ['SUCCESS', 'FAILED', 'CANCELED', 'REVERTED'];

final class Refusal extends Exception {
    public function __construct(public int $http, public string $ipCode, string $message, public array $headers = []) { parent::__construct($message); }
}

function answer(int $http, array $body, array $headers = []): void {
    http_response_code($http);
    header('Content-Type: application/json; charset=utf-8');
    header('Cache-Control: no-store');
    header('X-Content-Type-Options: nosniff');
    foreach ($headers as $name => $value) header("$name: $value");
    echo json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
}

function sign(string $message, string $key): string { return base64_encode(hash_hmac('sha256', $message, $key, true)); }

/**
 * Runs $fn holding one lock per key and per order (file locks): one request at a time for them, others go
 * on. Names share one of 65,536 lock files by their hash, so two shoppers wait for each other only in the
 * rare case their names' hashes meet (with 256 files, about one pair of books in 60 did).
 */
function locked(array $cfg, array $names, callable $fn): mixed {
    $dir = sys_get_temp_dir() . '/wpb-locks-' . substr(hash('sha256', $cfg['db']), 0, 12);
    if (!is_dir($dir)) @mkdir($dir, 0700, true);
    $buckets = array_unique(array_map(fn ($n) => hexdec(substr(hash('sha256', $n), 0, 4)), $names));
    sort($buckets);
    $files = [];
    try {
        foreach ($buckets as $b) { $files[] = $f = fopen("$dir/$b.lock", 'c'); flock($f, LOCK_EX); }
        return $fn();
    } finally {
        foreach (array_reverse($files) as $f) fclose($f);
    }
}

function db(array $cfg): PDO {
    $pdo = new PDO('sqlite:' . $cfg['db'], null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_DEFAULT_FETCH_MODE => PDO::FETCH_ASSOC]);
    $pdo->exec('PRAGMA busy_timeout = 10000');
    $pdo->exec('PRAGMA journal_mode = WAL');   // readers go on while one request writes
    $pdo->exec('CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, amount TEXT NOT NULL, paid INTEGER NOT NULL DEFAULT 0)');
    $pdo->exec('CREATE TABLE IF NOT EXISTS bookings (idem_key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, order_id TEXT NOT NULL,
        channel TEXT NOT NULL, booking_id TEXT NOT NULL UNIQUE, correlation_id TEXT NOT NULL UNIQUE, deeplink TEXT NOT NULL, amount TEXT NOT NULL, status TEXT NOT NULL,
        created_at INTEGER NOT NULL DEFAULT 0)');
    // Reconcile's next ask, its interval, a cancel's recheck end, /order's last ask: added once to an older file's store.
    $have = array_column($pdo->query('PRAGMA table_info(bookings)')->fetchAll(), 'name');
    foreach (array_diff(['next_check_at', 'check_every', 'recheck_until', 'asked_at'], $have) as $column) {
        try { $pdo->exec("ALTER TABLE bookings ADD COLUMN $column INTEGER NOT NULL DEFAULT 0"); } catch (PDOException) {}   // another process added it first
    }
    return $pdo;
}

/** How long the provider keeps a booking payable: eSewa's session, or the service's booking lifetime. */
function lifetime(array $cfg): int { return $cfg['epay']['on'] ? $cfg['epay']['lifetime'] : ($cfg['khalti']['on'] ? $cfg['khalti']['lifetime'] : $cfg['cancel_after']); }

/** eSewa's and Khalti's web checkouts have no cancel and send no callback: the proxy ends an open booking itself. */
function no_cancel(array $cfg): bool { return $cfg['epay']['on'] || $cfg['khalti']['on']; }

/** POSTs signed JSON to the service; returns [http status, decoded body]. */
function service(array $cfg, string $op, array $fields, string $signed): array {
    $fields['signed_field_names'] = $signed;
    $fields['signature'] = sign(implode(',', array_map(fn ($n) => "$n=" . (is_string($fields[$n]) ? $fields[$n] : json_encode($fields[$n])), explode(',', $signed))), $cfg['key']);
    $context = stream_context_create(['http' => ['method' => 'POST', 'header' => "Content-Type: application/json\r\n", 'content' => json_encode($fields, JSON_UNESCAPED_SLASHES),
        'ignore_errors' => true, 'timeout' => 10, 'follow_location' => 0]]);
    $text = @file_get_contents("{$cfg['service']}/api/client/intent/payment/$op", false, $context);
    $status = isset($http_response_header[0]) && preg_match('#^HTTP/\S+ (\d{3})#', $http_response_header[0], $m) ? (int) $m[1] : 0;
    $body = $text === false ? null : json_decode($text, true);
    if ($status === 0 || !is_array($body)) throw new Refusal(502, 'IP-502', 'The payment service could not be reached.');
    return [$status, $body];
}

/** The shop's own order: its amount as written, or null (not payable). The browser's order object is only a reference. */
function find_order(PDO $db, array $cfg, mixed $id): ?array {
    if (!is_string($id) || $id === '') return null;
    if ($cfg['demo_prefix'] !== '' && str_starts_with($id, $cfg['demo_prefix'])) {
        $db->prepare('INSERT OR IGNORE INTO orders (id, amount) VALUES (?, ?)')->execute([$id, $cfg['demo_amount']]);
    }
    $row = $db->prepare('SELECT id, amount, paid FROM orders WHERE id = ?');
    $row->execute([$id]);
    return $row->fetchAll()[0] ?? null;
}

function canonical(mixed $v): mixed {
    if ($v instanceof stdClass) { $v = (array) $v; ksort($v, SORT_STRING); return (object) array_map('canonical', $v); }
    return is_array($v) ? array_map('canonical', $v) : $v;
}

/** Records a final status once: a final status stays, but a refund (REVERTED) may follow a SUCCESS, and a
 *  SUCCESS may follow a CANCELED. So a SUCCESS replayed after its refund, or a FAILED after a SUCCESS, changes nothing.
 *  A CANCELED is asked about again by reconcile for the booking's lifetime: a payment may land after it. */
function record(PDO $db, array $booking, string $status, ?int $now = null): void {
    global $cfg;
    $q = $db->prepare("UPDATE bookings SET status = ? WHERE booking_id = ? AND (status IN ('BOOKED', 'PENDING') OR (status = 'SUCCESS' AND ? = 'REVERTED'))");
    $q->execute([$status, $booking['booking_id'], $status]);
    $changed = $q->rowCount() === 1;
    if ($changed && $status === 'CANCELED') {
        $db->prepare('UPDATE bookings SET recheck_until = ?, next_check_at = 0, check_every = 0 WHERE booking_id = ?')->execute([($now ?? time()) + lifetime($cfg), $booking['booking_id']]);
    }
    if (!$changed && $status === 'SUCCESS') {
        // Paid after our cancel (the wallet took the money anyway): delivered, never dropped, or the shopper pays twice.
        $late = $db->prepare("UPDATE bookings SET status = 'SUCCESS' WHERE booking_id = ? AND status = 'CANCELED'");
        $late->execute([$booking['booking_id']]);
        $changed = $late->rowCount() === 1;
        $paid = $db->prepare('SELECT paid FROM orders WHERE id = ?');
        $paid->execute([$booking['order_id']]);
        if ($changed && $paid->fetchColumn()) error_log("duplicate payment: {$booking['booking_id']} paid order {$booking['order_id']} again; refund one");
    }
    if ($changed && ($status === 'SUCCESS' || $status === 'REVERTED')) {
        $db->prepare('UPDATE orders SET paid = ? WHERE id = ?')->execute([$status === 'SUCCESS' ? 1 : 0, $booking['order_id']]);
    }
}

/** The eleven fields eSewa's form takes; total_amount is the sum (no tax or charges here), signed as posted. */
function epay_answer(array $cfg, array $b): array {
    [$e, $uuid, $total] = [$cfg['epay'], $b['booking_id'], $b['amount']];
    $fields = ['amount' => $total, 'tax_amount' => '0', 'product_service_charge' => '0', 'product_delivery_charge' => '0', 'total_amount' => $total,
        'transaction_uuid' => $uuid, 'product_code' => $e['product'], 'success_url' => "{$cfg['public']}/api/pay/return",
        'failure_url' => "{$cfg['public']}/api/pay/return?booking_id=$uuid", 'signed_field_names' => 'total_amount,transaction_uuid,product_code'];
    $fields['signature'] = sign("total_amount=$total,transaction_uuid=$uuid,product_code={$e['product']}", $e['secret']);
    return ['booking_id' => $uuid, 'correlation_id' => $uuid, 'channel' => 'web', 'wallet' => 'esewa', 'web_payment' => ['url' => $e['form'], 'method' => 'POST', 'fields' => $fields]];
}

function book_answer(array $cfg, array $b): array {
    if ($cfg['epay']['on']) return epay_answer($cfg, $b);
    // Khalti's payment_url (kept in the deeplink column) is opened by GET; pidx is both ids.
    if ($cfg['khalti']['on']) return ['booking_id' => $b['booking_id'], 'correlation_id' => $b['correlation_id'], 'channel' => 'web', 'wallet' => 'khalti', 'web_payment' => ['url' => $b['deeplink'], 'method' => 'GET']];
    $data = ['booking_id' => $b['booking_id'], 'correlation_id' => $b['correlation_id'], 'channel' => $b['channel']];
    if ($b['channel'] === 'app') return $data + ['deeplink' => $b['deeplink']];
    $fields = ['booking_id' => $b['booking_id'], 'correlation_id' => $b['correlation_id'], 'signed_field_names' => 'booking_id,correlation_id'];
    $fields['signature'] = sign("booking_id={$b['booking_id']},correlation_id={$b['correlation_id']}", $cfg['key']);
    return $data + ['web_payment' => ['url' => "{$cfg['service']}/web/pay", 'method' => 'POST', 'fields' => $fields]];
}

/** Whether the order is paid: a verified SUCCESS in this shop's records (not refunded since), or one the service, asked
 *  about a booking of the order still open, says now (recorded). The shopper is often back, in another browser, before
 *  the callback, and ePay v2 sends none. A booking is asked at most once per ORDER_ASK_SECONDS, however many tabs ask. */
function order_state(PDO $db, array $cfg, stdClass $body): array {
    if (array_keys((array) $body) !== ['order'] || !($body->order instanceof stdClass)) throw new Refusal(422, 'IP-422', 'Send exactly {"order": {...}}, the order as sent to /book.');
    $order = find_order($db, $cfg, $body->order->id ?? null) ?? throw new Refusal(422, 'IP-424', 'This order is unknown or cannot be paid.');
    $open = $db->prepare("SELECT * FROM bookings WHERE order_id = ? AND status IN ('BOOKED', 'PENDING')");
    $open->execute([$order['id']]);
    foreach ($order['paid'] ? [] : $open->fetchAll() as $b) {
        $claim = $db->prepare('UPDATE bookings SET asked_at = ? WHERE booking_id = ? AND asked_at <= ?');
        $claim->execute([time(), $b['booking_id'], time() - $cfg['ask_every']]);
        if ($claim->rowCount() === 1) { try { ask_service($db, $cfg, $b); } catch (Refusal) {} }   // out of reach: the records answer
    }
    return find_order($db, $cfg, $order['id'])['paid'] ? ['paid' => true, 'status' => 'SUCCESS'] : ['paid' => false];
}

function book(PDO $db, array $cfg, stdClass $body): array {
    $extra = array_diff(array_keys((array) $body), ['channel', 'order', 'handoff']);
    if ($extra || !isset($body->channel, $body->order)) throw new Refusal(422, 'IP-422', 'Send exactly {"channel", "order"} (and "handoff" on a phone hand-off); never an amount.');
    if (!in_array($body->channel, ['app', 'web'], true) || !($body->order instanceof stdClass)) throw new Refusal(422, 'IP-422', '"channel" must be "app" or "web", "order" an object.');
    if (property_exists($body, 'handoff') && ($body->handoff !== true || $body->channel !== 'app')) throw new Refusal(422, 'IP-422', '"handoff" may only be true, on an "app" booking.');
    $key = $_SERVER['HTTP_IDEMPOTENCY_KEY'] ?? '';
    if (!preg_match('/^[A-Za-z0-9_.:-]{16,128}$/', $key)) throw new Refusal(422, 'IP-422', 'Idempotency-Key must be 16 to 128 letters, digits, "-", "_", "." or ":".');
    $order = find_order($db, $cfg, $body->order->id ?? null);
    if (!$order) throw new Refusal(422, 'IP-424', 'This order is unknown or cannot be paid.');
    $fingerprint = json_encode([$body->channel, canonical($body->order), $body->handoff ?? false]);

    // One booking per key and per order, also for requests at once; a slow service holds only this order's lock.
    return locked($cfg, ["key:$key", "order:{$order['id']}"], function () use ($db, $cfg, $body, $key, $order, $fingerprint) {
        $order = find_order($db, $cfg, $order['id']);   // read again under the lock: paid meanwhile?
        $same = $db->prepare('SELECT * FROM bookings WHERE idem_key = ?');
        $same->execute([$key]);
        if ($row = $same->fetchAll()[0] ?? null) {
            if ($row['fingerprint'] !== $fingerprint) throw new Refusal(409, 'IP-409', 'This Idempotency-Key was used for another order or channel.');
            return book_answer($cfg, $row);
        }
        if ($order['paid']) throw new Refusal(409, 'IP-412', 'This order is already paid.');
        $open = $db->prepare("SELECT * FROM bookings WHERE order_id = ? AND status IN ('BOOKED', 'PENDING')");
        $open->execute([$order['id']]);
        foreach ($open->fetchAll() as $old) {   // a new attempt replaces an open one, unless it was paid meanwhile
            if (no_cancel($cfg)) {   // no cancel at eSewa or Khalti: the old one is cancelled here, and a payment landing later is still delivered
                $status = ask_service($db, $cfg, $old)['status'];
                record($db, $old, in_array($status, ['BOOKED', 'PENDING'], true) ? 'CANCELED' : $status);
                if ($status === 'SUCCESS') throw new Refusal(409, 'IP-412', 'This order is already paid.');
                continue;
            }
            [, $st] = service($cfg, 'status', ['booking_id' => $old['booking_id'], 'product_code' => $cfg['product'], 'correlation_id' => $old['correlation_id']], 'booking_id,product_code,correlation_id');
            $status = $st['data']['status'] ?? 'BOOKED';
            if (in_array($status, ['BOOKED', 'PENDING'], true)) {
                [$http] = service($cfg, 'cancel', ['booking_id' => $old['booking_id'], 'product_code' => $cfg['product']], 'booking_id,product_code');
                $status = $http === 200 ? 'CANCELED' : $status;
            }
            record($db, $old, $status);
            if ($status === 'SUCCESS') throw new Refusal(409, 'IP-412', 'This order is already paid.');
        }
        if ($cfg['khalti']['on']) return khalti_book($db, $cfg, $body, $key, $order, $fingerprint);
        if ($cfg['epay']['on']) {   // no call: the booking is the signed form, its uuid letters, digits and "-"
            $uuid = 'tx-' . substr(hash('sha256', "$key|$fingerprint|{$order['amount']}"), 0, 40);
            $row = ['idem_key' => $key, 'fingerprint' => $fingerprint, 'order_id' => $order['id'], 'channel' => 'web', 'booking_id' => $uuid,
                'correlation_id' => $uuid, 'deeplink' => '', 'amount' => $order['amount'], 'status' => 'BOOKED', 'created_at' => time()];
            $db->prepare('INSERT INTO bookings (idem_key, fingerprint, order_id, channel, booking_id, correlation_id, deeplink, amount, status, created_at)
                VALUES (:idem_key, :fingerprint, :order_id, :channel, :booking_id, :correlation_id, :deeplink, :amount, :status, :created_at)')->execute($row);
            return book_answer($cfg, $row);
        }
        $amount = str_contains($order['amount'], '.') ? (float) $order['amount'] : (int) $order['amount'];
        [$http, $res] = service($cfg, 'book', [
            'product_code' => $cfg['product'], 'amount' => $amount,
            // Derived from the key and the content: a retry after a crash gets the service's first booking back.
            'transaction_uuid' => 'tx_' . substr(hash('sha256', "$key|$fingerprint|{$order['amount']}"), 0, 40),
            'callback_url' => "{$cfg['public']}/api/pay/callback",
            // The phone of a hand-off has no session here: it returns to a page that asks the service, not to the checkout.
            'redirect_url' => ($body->handoff ?? false) ? "{$cfg['public']}/api/pay/handoff" : str_replace('{order_id}', rawurlencode($order['id']), $cfg['redirect']),
            'properties' => ['order_id' => $order['id']],
        ], 'product_code,amount,transaction_uuid');
        if ($http !== 200) throw new Refusal($http >= 500 ? 502 : 500, $http >= 500 ? 'IP-502' : 'IP-501', 'The payment service refused the booking: ' . ($res['error_message'] ?? $http));
        $row = ['idem_key' => $key, 'fingerprint' => $fingerprint, 'order_id' => $order['id'], 'channel' => $body->channel, 'booking_id' => $res['data']['booking_id'],
            'correlation_id' => $res['data']['correlation_id'], 'deeplink' => $res['data']['deeplink'], 'amount' => $order['amount'], 'status' => 'BOOKED', 'created_at' => time()];
        $db->prepare('INSERT INTO bookings (idem_key, fingerprint, order_id, channel, booking_id, correlation_id, deeplink, amount, status, created_at)
            VALUES (:idem_key, :fingerprint, :order_id, :channel, :booking_id, :correlation_id, :deeplink, :amount, :status, :created_at)')->execute($row);
        return book_answer($cfg, $row);
    });
}

/** The booking a status or cancel names: both ids must belong to a booking made here. */
function own_booking(PDO $db, stdClass $body): array {
    $ok = fn ($v) => is_string($v) && $v !== '' && strlen($v) <= 128;
    // The element also sends the booking's order and the book answer's receipt (kits that lost a booking
    // use them); this proxy keeps every booking, so it checks their types and reads the ids alone.
    $names = array_values(array_diff(array_keys((array) $body), ['order', 'receipt']));
    sort($names);
    if ($names !== ['booking_id', 'correlation_id'] || !$ok($body->booking_id) || !$ok($body->correlation_id)
        || !(($body->order ?? new stdClass()) instanceof stdClass) || !is_string($body->receipt ?? '')) {
        throw new Refusal(422, 'IP-422', 'Send {"booking_id", "correlation_id"} (non-empty strings), and "order" (an object) and "receipt" (a string) if kept.');
    }
    $q = $db->prepare('SELECT * FROM bookings WHERE booking_id = ? AND correlation_id = ?');
    $q->execute([$body->booking_id, $body->correlation_id]);
    return $q->fetchAll()[0] ?? throw new Refusal(404, 'IP-404', 'No booking with this booking_id and correlation_id was made here.');
}

/** eSewa's status check of a booking made here, mapped and, when final, recorded: only its COMPLETE fulfils. */
function ask_epay(PDO $db, array $cfg, array $b, ?int $now = null): array {
    [$e, $now] = [$cfg['epay'], $now ?? time()];
    $query = http_build_query(['product_code' => $e['product'], 'total_amount' => $b['amount'], 'transaction_uuid' => $b['booking_id']]);
    $text = @file_get_contents("{$e['status']}?$query", false, stream_context_create(['http' => ['timeout' => 10, 'follow_location' => 0]]));
    $v = $text === false ? null : json_decode($text, true);
    if (!is_array($v) || ($v['transaction_uuid'] ?? null) !== $b['booking_id'] || ($v['product_code'] ?? null) !== $e['product']) {
        throw new Refusal(502, 'IP-502', "eSewa's status check did not answer about this transaction.");
    }
    $status = match ($v['status'] ?? null) {
        'NOT_FOUND' => $b['status'] === 'CANCELED' || $now > $b['created_at'] + $e['lifetime'] ? 'CANCELED' : 'BOOKED',   // not posted yet, or the session ended at eSewa
        'CANCELED' => $b['status'] === 'SUCCESS' ? 'REVERTED' : 'CANCELED',                    // reversed by eSewa
        default => EPAY_MAP[$v['status'] ?? ''] ?? throw new Refusal(502, 'IP-502', "eSewa's status check gave no status."),
    };
    if (in_array($status, FINAL_STATUSES, true)) record($db, $b, $status, $now);
    return ['status' => $status];
}

/** eSewa's success redirect: its data (base64 JSON) read from the raw text (1000.0 stays 1000.0, a "," dropped from
 *  total_amount) and checked in constant time. A hint only: the booking it names is then asked of eSewa's status check. */
function read_epay_return(PDO $db, array $cfg, string $query): array {
    $e = $cfg['epay'];
    $json = preg_match('/(?:^|[?&])data=([^&?]*)/', $query, $m) ? base64_decode(str_replace(' ', '+', rawurldecode($m[1])), true) : false;
    $v = is_string($json) ? json_decode($json, true) : null;
    // The numbers' own text: json_decode makes 1000.0 a float written 1000.
    if (!is_array($v) || !preg_match('/"total_amount"\s*:\s*"?([0-9.,]+)"?/', (string) $json, $amount) || !is_string($v['signed_field_names'] ?? null)) {
        throw new Refusal(400, 'IP-400', "Not eSewa's return.");
    }
    $signed = explode(',', $v['signed_field_names']);
    $text = fn ($n) => $n === 'total_amount' ? str_replace(',', '', $amount[1]) : (is_string($v[$n] ?? null) ? $v[$n] : null);
    $message = implode(',', array_map(fn ($n) => "$n=" . $text($n), $signed));
    $covered = !array_diff(['total_amount', 'transaction_uuid', 'status', 'product_code'], $signed) && !in_array(null, array_map($text, $signed), true);
    if (!$covered || !is_string($v['signature'] ?? null) || !hash_equals(sign($message, $e['secret']), $v['signature']) || $v['product_code'] !== $e['product']) {
        throw new Refusal(400, 'IP-400', "Not eSewa's return: the signature does not match.");
    }
    $q = $db->prepare('SELECT * FROM bookings WHERE booking_id = ?');
    $q->execute([$v['transaction_uuid']]);
    $b = $q->fetchAll()[0] ?? null;
    if (!$b || (float) str_replace(',', '', $amount[1]) !== (float) $b['amount']) throw new Refusal(404, 'IP-404', 'No such payment here.');
    return $b;
}

/** Where eSewa sends the shopper back (success with data, failure with our booking_id): asks eSewa, then the checkout. */
function epay_return(PDO $db, array $cfg, string $query): void {
    try {
        if (str_contains($query, 'data=')) $b = read_epay_return($db, $cfg, $query);
        else {
            $q = $db->prepare('SELECT * FROM bookings WHERE booking_id = ?');
            $q->execute([(string) ($_GET['booking_id'] ?? '')]);
            $b = $q->fetchAll()[0] ?? throw new Refusal(404, 'IP-404', 'No such payment here.');
        }
        $status = ask_epay($db, $cfg, $b)['status'];
    } catch (Refusal $r) {
        page($r->http, $r->getMessage());
        return;
    }
    back_from_provider($cfg, $b, $status);
}

/** The shopper back from eSewa's or Khalti's page: a hand-off's phone reads the status here, a checkout asks /status itself. */
function back_from_provider(array $cfg, array $b, string $status): void {
    if (json_decode($b['fingerprint'])[2] ?? false) {
        page(200, HANDOFF_TEXT[$status] ?? 'Not paid. Go back to your computer to try again.');
        return;
    }
    http_response_code(303);
    header('Cache-Control: no-store');
    header('Location: ' . str_replace('{order_id}', rawurlencode($b['order_id']), $cfg['redirect']));
}

/** The service's status of a booking made here; a final one is recorded. */
function ask_service(PDO $db, array $cfg, array $b, ?int $now = null): array {
    if ($cfg['epay']['on']) return ask_epay($db, $cfg, $b, $now);
    if ($cfg['khalti']['on']) return ask_khalti($db, $cfg, $b, $now);
    [$http, $res] = service($cfg, 'status', ['booking_id' => $b['booking_id'], 'product_code' => $cfg['product'], 'correlation_id' => $b['correlation_id']], 'booking_id,product_code,correlation_id');
    if ($http !== 200 || !is_string($res['data']['status'] ?? null)) throw new Refusal(502, 'IP-502', 'The payment service did not give the status.');
    if (in_array($res['data']['status'], FINAL_STATUSES, true)) record($db, $b, $res['data']['status'], $now);
    return $res['data'];
}

function status(PDO $db, array $cfg, stdClass $body): array {
    $b = own_booking($db, $body);
    $st = ask_service($db, $cfg, $b);
    return ['booking_id' => $b['booking_id'], 'correlation_id' => $b['correlation_id'], 'status' => $st['status'], 'updated_at' => $st['updated_at'] ?? null];
}

/** The spec's five-minute rule, and what follows it: asks the service about every booking still open RECONCILE_AFTER_SECONDS
 *  after it was made, a PENDING one less and less often (every 1, 2, 4 ... 60 minutes); cancels one still open past the
 *  provider's lifetime (eSewa has no cancel: its NOT_FOUND past the session's lifetime is the CANCELED); and asks again, for
 *  that lifetime, about one cancelled, since a payment may land after the cancel with its callback lost. */
function reconcile(PDO $db, array $cfg, int $now): int {
    // A cron run a few seconds early still asks (the 10 s).
    $q = $db->prepare("SELECT * FROM bookings WHERE next_check_at <= ? + 10 AND ((status IN ('BOOKED', 'PENDING') AND created_at <= ?)
        OR (status = 'CANCELED' AND recheck_until > 0))");
    $q->execute([$now, $now - $cfg['reconcile_after']]);
    $rows = $q->fetchAll();
    foreach ($rows as $b) {
        try { echo "{$b['booking_id']}: " . reconcile_one($db, $cfg, $b, $now) . "\n"; } catch (Refusal $r) { fwrite(STDERR, "{$b['booking_id']}: {$r->getMessage()}\n"); }
    }
    return count($rows);
}

/** Asks a booking less and less often: 1, 2, 4 ... 60 minutes apart, and at $until at the latest. */
function back_off(PDO $db, array $b, int $now, int $until): void {
    $every = min(3600, max(60, $b['check_every'] * 2));
    $db->prepare('UPDATE bookings SET check_every = ?, next_check_at = ? WHERE booking_id = ?')->execute([$every, min($now + $every, $until), $b['booking_id']]);
}

function reconcile_one(PDO $db, array $cfg, array $b, int $now): string {
    $status = ask_service($db, $cfg, $b, $now)['status'];
    if ($b['status'] === 'CANCELED') {   // a recheck; a SUCCESS is recorded (delivered, never dropped)
        if ($status === 'SUCCESS' || $now >= $b['recheck_until']) $db->prepare('UPDATE bookings SET recheck_until = 0 WHERE booking_id = ?')->execute([$b['booking_id']]);
        else back_off($db, $b, $now, (int) $b['recheck_until']);
        return $status;
    }
    if (!in_array($status, ['BOOKED', 'PENDING'], true)) return $status;
    $ends = $b['created_at'] + lifetime($cfg);
    if ($now >= $ends && !no_cancel($cfg)) {   // left open past the service's lifetime: cancelled, so no stale screen pays it
        [$http, $res] = service($cfg, 'cancel', ['booking_id' => $b['booking_id'], 'product_code' => $cfg['product']], 'booking_id,product_code');
        if ($http === 200) { record($db, $b, 'CANCELED', $now); return 'CANCELED'; }
        if (($res['code'] ?? '') === 'IP-410') return ask_service($db, $cfg, $b, $now)['status'];   // processed meanwhile: recorded
        throw new Refusal(502, 'IP-502', 'The payment service did not cancel the booking.');
    }
    if ($status === 'PENDING') back_off($db, $b, $now, $now < $ends ? $ends : $now + 3600);
    return $status;
}

const HANDOFF_TEXT = [
    'SUCCESS' => 'Payment received. Go back to your computer: the order is paid there.',
    'BOOKED' => 'Not paid yet. Finish in the wallet app, or go back to your computer.',
    'PENDING' => 'The payment is being processed. Go back to your computer to see the result.',
];

/** Where the phone of a QR hand-off lands: it asks the service (never the status= of its address) and shows no order. */
function handoff_page(PDO $db, array $cfg, string $bookingId): void {
    $q = $db->prepare('SELECT * FROM bookings WHERE booking_id = ?');
    $q->execute([$bookingId]);
    $b = $q->fetchAll()[0] ?? null;
    page($b ? 200 : 404, $b ? HANDOFF_TEXT[ask_service($db, $cfg, $b)['status']] ?? 'Not paid. Go back to your computer to try again.' : 'No such payment here.');
}

function page(int $http, string $text): void {
    http_response_code($http);
    header('Content-Type: text/html; charset=utf-8');
    header('Cache-Control: no-store');
    header('X-Content-Type-Options: nosniff');
    header("Content-Security-Policy: default-src 'none'");
    echo '<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Payment</title><p>' . htmlspecialchars($text) . '</p>';
}

function cancel(PDO $db, array $cfg, stdClass $body): array {
    $b = own_booking($db, $body);
    if (no_cancel($cfg)) {   // no cancel at eSewa or Khalti: a paid one is refused, an open one ends here (and a later payment is still delivered)
        if (!in_array(ask_service($db, $cfg, $b)['status'], ['BOOKED', 'PENDING'], true)) throw new Refusal(409, 'IP-410', 'This booking is already processed.');
        record($db, $b, 'CANCELED');
        return ['booking_id' => $b['booking_id'], 'status' => 'CANCELED'];
    }
    [$http, $res] = service($cfg, 'cancel', ['booking_id' => $b['booking_id'], 'product_code' => $cfg['product']], 'booking_id,product_code');
    if (($res['code'] ?? '') === 'IP-410') throw new Refusal(409, 'IP-410', 'This booking is already processed.');
    if ($http !== 200) throw new Refusal(502, 'IP-502', 'The payment service did not cancel the booking.');
    record($db, $b, 'CANCELED');
    return ['booking_id' => $b['booking_id'], 'status' => 'CANCELED'];
}

/** The service's callback, verified on the raw body: the amount is signed as the body writes it (1000.0 stays 1000.0). */
function callback(PDO $db, array $cfg, string $raw, stdClass $body): array {
    $names = ['product_code', 'amount', 'reference_code', 'correlation_id', 'status', 'signed_field_names', 'signature'];
    $v = (array) $body;
    if (array_diff($names, array_keys($v)) || array_diff(array_keys($v), $names) || ($v['signed_field_names'] ?? '') !== CALLBACK_FIELDS
        || !preg_match_all('/"amount"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/', $raw, $m) || count($m[1]) !== 1 || !is_string($v['signature'])) {
        throw new Refusal(422, 'IP-422', 'Callback refused: not the service\'s callback fields.');
    }
    $message = "product_code={$v['product_code']},amount={$m[1][0]},reference_code={$v['reference_code']},correlation_id={$v['correlation_id']},status={$v['status']}";
    if (!hash_equals(sign($message, $cfg['key']), $v['signature'])) throw new Refusal(401, 'IP-400', 'Callback refused: the signature does not match.');
    if ($v['product_code'] !== $cfg['product']) throw new Refusal(401, 'IP-401', 'Callback refused: not this merchant\'s product code.');
    $q = $db->prepare('SELECT * FROM bookings WHERE correlation_id = ?');
    $q->execute([$v['correlation_id']]);
    $b = $q->fetchAll()[0] ?? throw new Refusal(404, 'IP-404', 'Callback refused: no booking with this correlation_id was made here.');
    if (in_array($v['status'], FINAL_STATUSES, true)) record($db, $b, $v['status']);   // a replay or a late status is answered 2xx and changes nothing
    return ['correlation_id' => $v['correlation_id'], 'status' => $v['status']];
}

// `php proxy.php reconcile` from cron; serve only under a web server: `require 'proxy.php'` from a test gets the functions alone.
if (PHP_SAPI === 'cli' && realpath($_SERVER['argv'][0] ?? '') === __FILE__ && ($_SERVER['argv'][1] ?? '') === 'reconcile') {
    // RECONCILE_NOW (epoch seconds) is the clock of a test's pass, e.g. a sandbox's moved one; else now.
    echo 'reconciled ' . reconcile(db($cfg), $cfg, (int) (getenv('RECONCILE_NOW') ?: time())) . " booking(s)\n";
} elseif (PHP_SAPI !== 'cli') {
    $route = basename(parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH) ?: '/');
    try {
        if ($route === 'handoff' && $_SERVER['REQUEST_METHOD'] === 'GET') return handoff_page(db($cfg), $cfg, (string) ($_GET['booking_id'] ?? ''));
        if ($route === 'return' && $epay['on'] && $_SERVER['REQUEST_METHOD'] === 'GET') return epay_return(db($cfg), $cfg, (string) ($_SERVER['QUERY_STRING'] ?? ''));
        if ($route === 'return' && $cfg['khalti']['on'] && $_SERVER['REQUEST_METHOD'] === 'GET') return khalti_return(db($cfg), $cfg, (string) ($_GET['pidx'] ?? ''));
        if (!in_array($route, ['book', 'status', 'cancel', 'order', 'callback'], true)) throw new Refusal(404, 'IP-444', 'No such endpoint; use POST .../book, .../status, .../cancel, .../order.');
        if ($_SERVER['REQUEST_METHOD'] !== 'POST') throw new Refusal(405, 'IP-405', "Use POST for /$route.", ['Allow' => 'POST']);
        $type = strtolower(trim($_SERVER['CONTENT_TYPE'] ?? ''));
        if (!preg_match('#^application/json\s*(;\s*charset="?utf-?8"?\s*)?$#', $type)) throw new Refusal(415, 'IP-415', 'Send the body as application/json in UTF-8.');
        if (!preg_match('/^\d{0,9}$/', (string) ($_SERVER['CONTENT_LENGTH'] ?? ''))) throw new Refusal(422, 'IP-422', 'Send the body with a Content-Length of digits only.');
        if ((int) ($_SERVER['CONTENT_LENGTH'] ?? 0) > MAX_BODY) throw new Refusal(413, 'IP-413', 'The body is larger than ' . MAX_BODY . ' bytes.');
        $raw = (string) file_get_contents('php://input', false, null, 0, MAX_BODY + 1);
        if (strlen($raw) > MAX_BODY) throw new Refusal(413, 'IP-413', 'The body is larger than ' . MAX_BODY . ' bytes.');
        $body = json_decode($raw);
        if (!($body instanceof stdClass)) throw new Refusal(422, 'IP-422', 'The body must be a JSON object.');
        $db = db($cfg);
        $data = match ($route) {
            'book' => book($db, $cfg, $body), 'status' => status($db, $cfg, $body),
            'cancel' => cancel($db, $cfg, $body), 'order' => order_state($db, $cfg, $body), 'callback' => callback($db, $cfg, $raw, $body),
        };
        answer(200, ['code' => $route === 'cancel' ? 'IP-210' : 'IP-201', 'message' => 'OK', 'data' => $data]);
    } catch (Refusal $r) {
        answer($r->http, ['code' => $r->ipCode, 'error_message' => $r->getMessage()], $r->headers);
    } catch (Throwable $e) {
        error_log((string) $e);
        answer(500, ['code' => 'IP-500', 'error_message' => 'The server could not handle this request.']);
    }
}

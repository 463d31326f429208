<?php
// Khalti's web checkout, KPG-2, for proxy.php's PROVIDER=khalti: initiate, lookup and the return page. Khalti signs
// nothing, so trust comes from the lookup made with the secret key; amounts are paisa, integers, computed without floats.
declare(strict_types=1);

// Khalti's lookup statuses; Expired and User canceled come with HTTP 400, any status not named here is held open.
const KHALTI_MAP = ['Initiated' => 'BOOKED', 'Pending' => 'PENDING', 'Completed' => 'SUCCESS', 'Partially Refunded' => 'SUCCESS', 'Refunded' => 'REVERTED',
    'Expired' => 'CANCELED', 'User canceled' => 'CANCELED', 'Canceled' => 'CANCELED', 'Failed' => 'FAILED'];

/** Rupees written as text ("1250.50") in paisa, exactly: no float ever holds the amount. */
function paisa(string $rupees): int {
    if (!preg_match('/^(\d{1,9})(?:\.(\d{1,2}))?$/', $rupees, $m)) throw new Refusal(500, 'IP-501', "The order's amount is not rupees with at most two decimals.");
    return (int) $m[1] * 100 + (int) str_pad($m[2] ?? '', 2, '0');
}

/** POSTs JSON to Khalti's epayment API with the secret key; returns [http status, decoded body]. */
function khalti(array $cfg, string $op, array $fields): array {
    $k = $cfg['khalti'];
    $context = stream_context_create(['http' => ['method' => 'POST', 'header' => "Content-Type: application/json\r\nAuthorization: Key {$k['secret']}\r\n",
        'content' => json_encode($fields, JSON_UNESCAPED_SLASHES), 'ignore_errors' => true, 'timeout' => 10, 'follow_location' => 0]]);
    $text = @file_get_contents("{$k['base']}/api/v2/epayment/$op/", false, $context);
    $status = isset($http_response_header[0]) && preg_match('#^HTTP/\S+ (\d{3})#', $http_response_header[0], $m) ? (int) $m[1] : 0;
    $body = $text === false ? null : json_decode($text, true);
    if ($status === 0 || !is_array($body)) throw new Refusal(502, 'IP-502', 'Khalti could not be reached.');
    return [$status, $body];
}

/** Initiates a Khalti payment of the order's amount in paisa; its pidx is the booking, its payment_url the page. */
function khalti_book(PDO $db, array $cfg, stdClass $body, string $key, array $order, string $fingerprint): array {
    [$http, $res] = khalti($cfg, 'initiate', ['return_url' => "{$cfg['public']}/api/pay/return", 'website_url' => $cfg['khalti']['website'],
        'amount' => paisa($order['amount']), 'purchase_order_id' => $order['id'], 'purchase_order_name' => "Order {$order['id']}"]);
    if ($http !== 200 || !is_string($res['pidx'] ?? null) || !is_string($res['payment_url'] ?? null)) {
        throw new Refusal($http >= 500 ? 502 : 500, $http >= 500 ? 'IP-502' : 'IP-501', 'Khalti refused the payment: ' . json_encode($res, JSON_UNESCAPED_SLASHES));
    }
    $row = ['idem_key' => $key, 'fingerprint' => $fingerprint, 'order_id' => $order['id'], 'channel' => 'web', 'booking_id' => $res['pidx'],
        'correlation_id' => $res['pidx'], 'deeplink' => $res['payment_url'], 'amount' => $order['amount'], 'status' => 'BOOKED', 'created_at' => time()];
    $db->prepare('INSERT INTO bookings (idem_key, fingerprint, order_id, channel, booking_id, correlation_id, deeplink, amount, status, created_at)
        VALUES (:idem_key, :fingerprint, :order_id, :channel, :booking_id, :correlation_id, :deeplink, :amount, :status, :created_at)')->execute($row);
    return book_answer($cfg, $row);
}

/** Khalti's lookup of a booking made here, mapped and, when final, recorded: only Completed, of this booking's paisa, fulfils.
 *  Expired and User canceled come with HTTP 400: an answer (CANCELED), not an error. */
function ask_khalti(PDO $db, array $cfg, array $b, ?int $now = null): array {
    [$http, $v] = khalti($cfg, 'lookup', ['pidx' => $b['booking_id']]);
    $named = ($v['pidx'] ?? null) === $b['booking_id'] && is_string($v['status'] ?? null);
    if (!$named || !($http === 200 || ($http === 400 && in_array($v['status'], ['Expired', 'User canceled'], true)))) {
        throw new Refusal(502, 'IP-502', "Khalti's lookup did not answer about this payment (HTTP $http).");
    }
    $status = KHALTI_MAP[$v['status']] ?? 'PENDING';   // Khalti: hold any other status and ask them
    if ($status === 'SUCCESS' && ($v['total_amount'] ?? null) !== paisa($b['amount'])) throw new Refusal(502, 'IP-502', "Khalti's lookup names another amount than this booking's.");
    if (in_array($status, FINAL_STATUSES, true)) record($db, $b, $status, $now);
    return ['status' => $status];
}

/** Khalti's return_url: its query is unsigned, so it is a hint naming a pidx made here, which is looked up; then the checkout. */
function khalti_return(PDO $db, array $cfg, string $pidx): void {
    try {
        $q = $db->prepare('SELECT * FROM bookings WHERE booking_id = ?');
        $q->execute([$pidx]);
        $b = $q->fetchAll()[0] ?? throw new Refusal(404, 'IP-404', 'No such payment here.');
        $status = ask_khalti($db, $cfg, $b)['status'];
    } catch (Refusal $r) {
        page($r->http, $r->getMessage());
        return;
    }
    back_from_provider($cfg, $b, $status);
}

import 'dart:convert';
import 'package:flutter/widgets.dart';
import 'package:http/http.dart' as http;
import 'package:url_launcher/url_launcher.dart';
import 'package:uuid/uuid.dart';
import 'package:webview_flutter/webview_flutter.dart';

class WalletPay {
  WalletPay(this.controller) {
    _lifecycle = AppLifecycleListener(
        onResume: () => _checkStatus().catchError((Object error) => debugPrint('wallet-pay: status check failed: $error')));
  }

  final WebViewController controller;
  late final AppLifecycleListener _lifecycle;
  Map<String, dynamic>? _detail;
  Map<String, dynamic>? _booking;

  /// Sets the WebView up: the channel, and the `Flutter` token the element's rule looks for.
  Future<void> attach(Uri checkout) async {
    final agent = await controller.getUserAgent();
    await controller.setJavaScriptMode(JavaScriptMode.unrestricted);
    await controller.setUserAgent('${agent ?? ''} Flutter');
    await controller.addJavaScriptChannel('WalletPayChannel', onMessageReceived: (message) =>
        _pay(message.message).catchError((Object error) => debugPrint('wallet-pay: booking failed: $error')));
    await controller.loadRequest(checkout);
  }

  Future<void> _pay(String json) async {
    final page = Uri.tryParse(await controller.currentUrl() ?? '');
    if (page?.host != 'shop.example') return; // only the shop's own pages may start a payment
    final detail = jsonDecode(json) as Map<String, dynamic>;
    final data = await _post('${detail['endpoint']}/book', {'channel': 'app', 'order': detail['order']},
        idempotencyKey: const Uuid().v4());
    final deeplink = Uri.parse(data['deeplink'] as String);
    if (deeplink.scheme != 'https' || deeplink.host != 'links.wallet.example') throw StateError('deeplink refused: $deeplink');
    _detail = detail;
    _booking = data;
    await launchUrl(deeplink, mode: LaunchMode.externalApplication);
  }

  Future<void> _checkStatus() async {
    final detail = _detail, booking = _booking;
    if (detail == null || booking == null) return;
    final data = await _post('${detail['endpoint']}/status',
        {'booking_id': booking['booking_id'], 'correlation_id': booking['correlation_id']});
    final status = data['status'] as String;
    if (status == 'BOOKED' || status == 'PENDING') return; // not final yet: check again later
    final target = status == 'SUCCESS' ? detail['success_url'] : detail['failure_url'];
    _detail = _booking = null;
    if (target is String) {
      final url = Uri.parse(target);
      await controller.loadRequest(url.replace(queryParameters: {
        ...url.queryParameters, 'booking_id': booking['booking_id'] as String, 'status': status,
      }));
    }
  }

  /// Your app's own way to authenticate the shopper to the shop goes in the headers here.
  Future<Map<String, dynamic>> _post(String url, Map<String, dynamic> body, {String? idempotencyKey}) async {
    final response = await http.post(Uri.parse(url), body: jsonEncode(body), headers: {
      'Content-Type': 'application/json',
      if (idempotencyKey != null) 'Idempotency-Key': idempotencyKey,
    });
    if (response.statusCode < 200 || response.statusCode > 299) {
      throw http.ClientException('HTTP ${response.statusCode}: ${response.body}', Uri.parse(url));
    }
    return (jsonDecode(response.body) as Map<String, dynamic>)['data'] as Map<String, dynamic>;
  }

  void dispose() => _lifecycle.dispose();
}

import UIKit
import WebKit

final class WalletPayHandler: NSObject, WKScriptMessageHandler {
    private weak var webView: WKWebView?
    private var detail: [String: Any]?
    private var booking: [String: Any]?

    init(webView: WKWebView) {
        self.webView = webView
        super.init()
        // Register before loading the page; WKUserContentController keeps the handler alive.
        webView.configuration.userContentController.add(self, name: "walletPay")
        NotificationCenter.default.addObserver(self, selector: #selector(checkStatus),
                                               name: UIApplication.willEnterForegroundNotification, object: nil)
    }

    func userContentController(_ controller: WKUserContentController, didReceive message: WKScriptMessage) {
        // Only the shop's own page may start a payment.
        guard message.frameInfo.isMainFrame, message.frameInfo.securityOrigin.host == "shop.example",
              let text = message.body as? String,
              let detail = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let endpoint = detail["endpoint"] as? String else { return }
        Task { @MainActor in
            do {
                let data = try await post("\(endpoint)/book", ["channel": "app", "order": detail["order"] ?? [:]],
                                          idempotencyKey: UUID().uuidString)
                guard let link = data["deeplink"] as? String, let deeplink = URL(string: link),
                      deeplink.scheme == "https", deeplink.host == "links.wallet.example" else { return }
                self.detail = detail
                self.booking = data
                _ = await UIApplication.shared.open(deeplink)
            } catch {
                print("wallet-pay: booking failed: \(error)")
            }
        }
    }

    @objc private func checkStatus() {
        guard let detail, let booking, let endpoint = detail["endpoint"] as? String else { return }
        Task { @MainActor in
            do {
                let data = try await post("\(endpoint)/status", ["booking_id": booking["booking_id"] ?? "",
                                                                  "correlation_id": booking["correlation_id"] ?? ""])
                guard let status = data["status"] as? String, status != "BOOKED", status != "PENDING" else { return } // not final yet
                self.detail = nil
                self.booking = nil
                let target = detail[status == "SUCCESS" ? "success_url" : "failure_url"] as? String
                guard let target, var url = URLComponents(string: target) else { return }
                url.queryItems = (url.queryItems ?? []) + [URLQueryItem(name: "booking_id", value: booking["booking_id"] as? String),
                                                           URLQueryItem(name: "status", value: status)]
                if let result = url.url { webView?.load(URLRequest(url: result)) }
            } catch {
                print("wallet-pay: status check failed: \(error)")
            }
        }
    }

    @MainActor private func post(_ url: String, _ body: [String: Any], idempotencyKey: String? = nil) async throws -> [String: Any] {
        guard let target = URL(string: url) else { throw URLError(.badURL) }
        var request = URLRequest(url: target)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let idempotencyKey { request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key") }
        // The shopper's session, as the page would send it: the WebView's cookies for this URL.
        let host = target.host ?? ""
        let cookies = await webView?.configuration.websiteDataStore.httpCookieStore.allCookies() ?? []
        let sent = cookies.filter { host.hasSuffix($0.domain.hasPrefix(".") ? String($0.domain.dropFirst()) : $0.domain) }
        for (name, value) in HTTPCookie.requestHeaderFields(with: sent) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse, (200...299).contains(http.statusCode) else { throw URLError(.badServerResponse) }
        return ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["data"] as? [String: Any]) ?? [:]
    }
}

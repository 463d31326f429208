import android.app.Activity
import android.content.Intent
import android.net.Uri
import android.util.Log
import android.webkit.CookieManager
import android.webkit.JavascriptInterface
import android.webkit.WebView
import org.json.JSONObject
import java.io.IOException
import java.net.HttpURLConnection
import java.net.URL
import java.util.UUID
import kotlin.concurrent.thread

const val SHOP_HOST = "shop.example"
const val WALLET_LINKS_HOST = "links.wallet.example"

class WalletPayBridge(private val activity: Activity, private val webView: WebView) {
    private class Payment(val endpoint: String, val bookingId: String, val correlationId: String, val successUrl: String?, val failureUrl: String?)
    @Volatile private var payment: Payment? = null
    @Volatile private var pageHost: String? = null

    // webView.addJavascriptInterface(bridge, "WalletPayBridge") and, in your WebViewClient,
    // onPageFinished(view, url) { bridge.pageLoaded(url) }: the bridge acts only for the shop's pages.
    fun pageLoaded(url: String?) { pageHost = url?.let { Uri.parse(it).host } }

    @JavascriptInterface // called on a background thread
    fun postMessage(json: String) {
        if (pageHost != SHOP_HOST) return
        val detail = JSONObject(json)
        val endpoint = detail.getString("endpoint")
        thread {
            try {
                val data = post("$endpoint/book", JSONObject().put("channel", "app").put("order", detail.getJSONObject("order")), UUID.randomUUID().toString())
                val deeplink = Uri.parse(data.getString("deeplink"))
                check(deeplink.scheme == "https" && deeplink.host == WALLET_LINKS_HOST) { "deeplink refused: $deeplink" }
                payment = Payment(endpoint, data.getString("booking_id"), data.getString("correlation_id"),
                    detail.urlOrNull("success_url"), detail.urlOrNull("failure_url"))
                activity.runOnUiThread { activity.startActivity(Intent(Intent.ACTION_VIEW, deeplink)) }
            } catch (error: Exception) {
                Log.e("WalletPay", "booking failed", error)
            }
        }
    }

    // Call from Activity.onResume(): the shopper is back from the wallet app.
    fun onResume() {
        val p = payment ?: return
        thread {
            try {
                val status = post("${p.endpoint}/status", JSONObject().put("booking_id", p.bookingId).put("correlation_id", p.correlationId)).getString("status")
                val target = when (status) {
                    "SUCCESS" -> p.successUrl
                    "FAILED", "CANCELED", "REVERTED" -> p.failureUrl
                    else -> return@thread // BOOKED or PENDING: not final yet, check again later
                }
                payment = null
                if (target != null) {
                    val url = Uri.parse(target).buildUpon().appendQueryParameter("booking_id", p.bookingId).appendQueryParameter("status", status).build()
                    activity.runOnUiThread { webView.loadUrl(url.toString()) }
                }
            } catch (error: Exception) {
                Log.e("WalletPay", "status check failed", error)
            }
        }
    }

    private fun JSONObject.urlOrNull(name: String): String? = if (isNull(name)) null else getString(name)

    private fun post(url: String, body: JSONObject, idempotencyKey: String? = null): JSONObject {
        val connection = URL(url).openConnection() as HttpURLConnection
        connection.requestMethod = "POST"
        connection.instanceFollowRedirects = false
        connection.setRequestProperty("Content-Type", "application/json")
        CookieManager.getInstance().getCookie(url)?.let { connection.setRequestProperty("Cookie", it) }
        idempotencyKey?.let { connection.setRequestProperty("Idempotency-Key", it) }
        connection.doOutput = true
        connection.outputStream.use { it.write(body.toString().toByteArray()) }
        val ok = connection.responseCode in 200..299
        val text = (if (ok) connection.inputStream else connection.errorStream)?.bufferedReader()?.use { it.readText() } ?: ""
        if (!ok) throw IOException("HTTP ${connection.responseCode} from $url: $text")
        return JSONObject(text).getJSONObject("data")
    }
}

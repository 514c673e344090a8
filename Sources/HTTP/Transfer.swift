import Basics
import CCurl
import FoundationEssentials
import Glibc
import Synchronization

/// One GET in flight: its request, the reply as it arrives, and its curl handle. Made by the caller, then owned by
/// the engine's thread (curl's callbacks run there too).
final class Transfer: @unchecked Sendable {
    /// Why the transfer stopped itself.
    private enum Stop { case tooLarge, errorStatus }

    let id: Int
    let request: HTTPGet
    let received: @Sendable (Int) -> Void
    let continuation: CheckedContinuation<HTTPReply, any Error>

    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var status = 0
    private var headers: [String: String] = [:]
    /// Whether the current response's headers have all arrived (the blank line after them).
    private var headersDone = false
    private var expectedLength: Int?
    /// The values of the current response's Content-Length headers when it sent more than one that disagree.
    private var conflictingLengths: [String] = []
    private var body: [UInt8] = []
    private var stop: Stop?
    /// When a byte last arrived (or the transfer began): the stall timeout counts from here.
    private var lastActivity = ContinuousClock.now

    init(id: Int, request: HTTPGet, received: @escaping @Sendable (Int) -> Void,
         continuation: CheckedContinuation<HTTPReply, any Error>) {
        self.id = id
        self.request = request
        self.received = received
        self.continuation = continuation
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        errorBuffer.deallocate()
    }

    func configure(_ easy: UnsafeMutableRawPointer) {
        self.easy = easy
        lastActivity = .now
        let context = Unmanaged.passUnretained(self).toOpaque()
        ccurl_easy_setopt_string(easy, CURLOPT_URL, request.url.absoluteString)
        ccurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        ccurl_easy_close_sockets_on_exec(easy)
        ccurl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        ccurl_easy_setopt_long(easy, CURLOPT_MAXREDIRS, request.maxRedirects)
        ccurl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        ccurl_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        ccurl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout))
        ccurl_easy_setopt_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBytes))
        // Every encoding this libcurl can decode; the limits count decoded bytes.
        ccurl_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        ccurl_easy_setopt_string(easy, CURLOPT_USERAGENT, "ThumbTable")
        ccurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        ccurl_easy_setopt_callback(easy, CURLOPT_WRITEFUNCTION, receiveBody)
        ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        ccurl_easy_setopt_callback(easy, CURLOPT_HEADERFUNCTION, receiveHeader)
        ccurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        // A line break in a header would start another header: such a header is not sent.
        // (By scalars: "\r\n" is one Character, equal to neither "\r" nor "\n".)
        for (name, value) in request.headers
        where !(name + value).unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
            headerList = ccurl_slist_append(headerList, "\(name): \(value)")
        }
        if let headerList { ccurl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList) }
    }

    /// Frees the curl handle and header list. The engine removed the handle from its multi handle first.
    func release() {
        if let easy { ccurl_easy_cleanup(easy) }
        easy = nil
        if let headerList { ccurl_slist_free_all(headerList) }
        headerList = nil
    }

    // MARK: curl's callbacks

    /// One header line, status line included; a status line starts a new response (after a redirect).
    fileprivate func header(_ line: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        let text = String(decoding: line, as: UTF8.self).trimmingSpacesAndLineEnds()
        if text.hasPrefix("HTTP/") {
            let parts = text.split(separator: " ", maxSplits: 2)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = [:]
            conflictingLengths = []
            headersDone = false
        } else if text.isEmpty {
            headersDone = true
            expectedLength = headers["content-length"].flatMap(Int.init)
            // The end of a response's headers: an error status need not be read further.
            if request.skipsErrorBodies, status >= 400 {
                stop = .errorStatus
                return false
            }
            if let length = expectedLength, length <= request.maxBytes {
                body.reserveCapacity(length)
            }
        } else if headers.count < Self.maxHeaders, line.count <= Self.maxHeaderLine,
                  let colon = text.firstIndex(of: ":") {
            let name = text[..<colon].lowercased()
            let value = text[text.index(after: colon)...].trimmingSpaces()
            // Headers are untrusted and reach caches, requests and messages: a name that is not a token, or a
            // value with a control character in it, is dropped rather than kept half-cleaned.
            if !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte),
               value.unicodeScalars.allSatisfy({ $0 == "\t" || !(0...0x1F ~= $0.value || 0x7F...0x9F ~= $0.value) }) {
                if name == "content-length", let first = headers[name], first != value {
                    conflictingLengths = [first, value]
                }
                headers[name] = value
            }
        }
        return true
    }

    /// The most headers kept from one response, and the longest header line: far above what a real server
    /// sends, low enough that a hostile one cannot fill memory through them.
    static let maxHeaders = 100
    static let maxHeaderLine = 8192

    /// RFC 9110's tchar: the bytes a header name may hold.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// A chunk of the body: kept and reported; the chunk that passes the byte limit is the last one read.
    fileprivate func bodyChunk(_ chunk: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        body.append(contentsOf: chunk)
        received(chunk.count)
        if body.count > request.maxBytes {
            stop = .tooLarge
            return false
        }
        return true
    }

    // MARK: The outcome

    /// When the transfer counts as stalled if nothing more arrives; nil without a stall timeout.
    var stallDeadline: ContinuousClock.Instant? {
        request.stallTimeout.map { lastActivity + $0 }
    }

    func stalled() -> HTTPFailure {
        .stalled(limit: request.stallTimeout ?? request.timeout, stage: stage)
    }

    /// How far the transfer got: connecting, waiting, or so many bytes into the body.
    private var stage: TransferStage {
        if headersDone { return .body(received: body.count, expected: expectedLength) }
        if status != 0 { return .waitingForResponse }
        // The request's size is counted once it was sent, so a connection was made.
        var sent = 0
        if let easy { ccurl_easy_getinfo_long(easy, CURLINFO_REQUEST_SIZE, &sent) }
        return sent > 0 ? .waitingForResponse : .connecting
    }

    func outcome(_ code: CURLcode) -> Result<HTTPReply, any Error> {
        switch (code, stop) {
        case (CURLE_OK, _), (CURLE_WRITE_ERROR, .errorStatus):
            return .success(HTTPReply(status: status, headers: headers, body: stop == .errorStatus ? [] : body))
        default:
            return .failure(failure(code))
        }
    }

    /// The failure a curl result stands for, as precisely as the transfer's state tells; one met while following
    /// a redirect names where it led (a 3xx and its Location are the last response read), not the URL asked for.
    private func failure(_ code: CURLcode) -> HTTPFailure {
        let failure = directFailure(code)
        guard (300...399).contains(status), let location = headers["location"] else { return failure }
        let target = URL(string: location, relativeTo: request.url)?.absoluteString ?? location
        switch failure {
        case .connection(let reason): return .connection("following the redirect to \(target): \(reason)")
        case .badResponse(let reason): return .badResponse("following the redirect to \(target): \(reason)")
        default: return failure
        }
    }

    private func directFailure(_ code: CURLcode) -> HTTPFailure {
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: ccurl_easy_strerror(code)) : detail
        switch code {
        case CURLE_WRITE_ERROR where stop == .tooLarge, CURLE_FILESIZE_EXCEEDED:
            return .tooLarge
        case CURLE_OUT_OF_MEMORY where !headersDone && stage != .connecting:
            // libcurl's answer to a header line past its 100 KB (CURL_MAX_HTTP_HEADER), not a lack of memory.
            return .badResponse("the server's headers are too large")
        case _ where conflictingLengths.count == 2:
            return .badResponse("the server sent two Content-Length headers that disagree "
                                + "(\(conflictingLengths[0]) and \(conflictingLengths[1]))")
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(limit: request.timeout, stage: stage)
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            // The request's own URL, or a redirect's: only a redirect leaves a 3xx status and its Location behind.
            let scheme = request.url.scheme?.lowercased() ?? ""
            if (300...399).contains(status), let location = headers["location"] {
                return .redirectRefused(location: location,
                                        reason: code == CURLE_URL_MALFORMAT ? .malformed : .notHTTP)
            }
            if scheme != "http", scheme != "https" { return .unsupportedScheme(scheme) }
            // curl's word for an answer without a status line ("HTTP/0.9"): the server does not speak HTTP.
            return .badResponse("the server's answer is not HTTP (\(message))")
        case CURLE_COULDNT_CONNECT:
            var osError = 0
            if let easy { ccurl_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &osError) }
            if osError == Int(ECONNREFUSED) { return .connection("connection refused") }
            // libcurl gives no OS error when it could not make a socket at all: the process's descriptors may be
            // all in use, which one more open tells.
            if osError == 0 || osError == Int(EMFILE) || osError == Int(ENFILE), let exhausted = Self.descriptorsExhausted() {
                return .connection(exhausted)
            }
            return .connection(osError == 0 ? "cannot connect (\(message))"
                                            : String(cString: strerror(Int32(osError))).lowercased())
        case CURLE_COULDNT_RESOLVE_HOST: return .connection("host not found")
        case CURLE_COULDNT_RESOLVE_PROXY: return .connection("proxy not found")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
            return .connection("the secure (TLS) connection failed (\(message))")
        case CURLE_GOT_NOTHING: return .broken(stage: .waitingForResponse, detail: "")
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .broken(stage: stage == .connecting ? .waitingForResponse : stage, detail: message)
        case CURLE_WEIRD_SERVER_REPLY: return .badResponse("the server's response could not be understood")
        case CURLE_BAD_CONTENT_ENCODING: return .badResponse("the server's compressed response is corrupt")
        default: return .connection(message)
        }
    }

    /// Why no descriptor can be opened now (this process's limit, or the system's), or nil when one can.
    static func descriptorsExhausted() -> String? {
        let probe = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if probe >= 0 {
            close(probe)
            return nil
        }
        switch errno {
        case EMFILE:
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            return "out of file descriptors: all \(limit.rlim_cur) this process may open are in use (ulimit -n)"
        case ENFILE: return "out of file descriptors: the system's are all in use"
        default: return nil
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}

/// curl's write callback: hands the chunk to its transfer; returning less than the chunk's size stops the transfer.
private let receiveBody: curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.bodyChunk(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// curl's header callback: one header line at a time.
private let receiveHeader: curl_write_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.header(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

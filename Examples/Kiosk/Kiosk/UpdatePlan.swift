import Foundation
import MCPackReader

/// The kiosk's update channel, from two Info.plist keys (set through the
/// MCPACK_CHANNEL_URL and MCPACK_CHANNEL_KEY build settings, see
/// Kiosk-Info.plist): the channel's folder URL and the sender's minisign
/// public key. Both absent or empty, the app never checks for updates.
struct UpdateSettings: Sendable {
    static let channelURLKey = "MCPackChannelURL"
    static let publicKeyKey = "MCPackChannelKey"

    let channel: URL
    let keys: [ChannelKey]

    /// nil when no channel is set; throws, naming the key, when a value is
    /// there but unusable, so a typo in a build setting is logged rather
    /// than mistaken for "updates off".
    init?(info: [String: Any]) throws {
        let url = (info[Self.channelURLKey] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        // An array trusts a second key too: docs/channel.md suggests an
        // offline one, for the day the first must be dropped.
        let texts = info[Self.publicKeyKey] as? [String] ?? [info[Self.publicKeyKey] as? String ?? ""]
        let lines = texts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        if url.isEmpty && lines.isEmpty { return nil }
        guard let channel = URL(string: url), ["http", "https"].contains(channel.scheme?.lowercased() ?? ""), channel.host != nil else {
            throw UpdateSettingsError(message: "\(Self.channelURLKey): \"\(url)\" is not the http(s) URL of a channel (the folder holding index.json)")
        }
        guard !lines.isEmpty else {
            throw UpdateSettingsError(message: "\(Self.publicKeyKey) is empty: give the base64 line of the channel's minisign public key")
        }
        keys = try lines.map { line in
            do { return try ChannelKey(minisignPublicKey: line) } catch {
                throw UpdateSettingsError(message: "\(Self.publicKeyKey): \(error)")
            }
        }
        self.channel = channel
    }

    /// The updater's options: the shipped bundle offered for reuse, so the
    /// first update fetches only the files that differ from it, and the
    /// bundle's name, so a channel of another bundle is refused.
    func options(shipped: URL?, bundleName: String?) -> UpdateOptions {
        var options = UpdateOptions(channel: channel, trustedKeys: keys)
        options.localBundles = shipped.map { [$0] } ?? []
        options.bundleName = bundleName
        return options
    }
}

struct UpdateSettingsError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// When the kiosk checks its channel and when it moves to a version the
/// updater installed. Plain values in, a decision out: the model asks it
/// every tick and does what it says.
struct UpdatePlan: Sendable {
    /// The nightly check, local time: the exhibition is closed, and an
    /// update's downloads and hashing slow nobody down.
    var checkHour = 3
    /// A check that could not reach the channel (the network was down) is
    /// tried again after this rather than a night later; a refused one is
    /// not, since only a change of the channel can make it pass.
    var retryAfter: TimeInterval = 3600
    /// No touch for this long and the kiosk is idle. A visitor reading a
    /// clause may not touch it for a minute or two; the switch resets the
    /// screen, so it must not come under their eyes.
    var idleBeforeSwitch: TimeInterval = 5 * 60
    var calendar = Calendar.current

    /// What is on screen, as far as a switch is concerned.
    enum Screen: Sendable {
        /// The scan, which someone may be using.
        case kiosk
        /// Opening or verifying: a switch would race that work.
        case busy
        /// Nothing usable (no bundle, or a damaged one): a new version can
        /// only help.
        case nothing
    }

    enum Step: Sendable, Equatable {
        case check
        case switchBundle
        case wait
    }

    func step(now: Date, nextCheck: Date, switchPending: Bool, screen: Screen, lastTouch: Date) -> Step {
        if switchPending {
            // No check until the installed version is on screen: an update
            // keeps only the current and the previous version, and the one
            // on screen would be neither after a second install.
            switch screen {
            case .busy: return .wait
            case .nothing: return .switchBundle
            case .kiosk: return now.timeIntervalSince(lastTouch) >= idleBeforeSwitch ? .switchBundle : .wait
            }
        }
        // Nor while the first launch verifies the shipped bundle: both
        // would read every file of it at once.
        return now >= nextCheck && screen != .busy ? .check : .wait
    }

    /// The next check after one that ended at `now`.
    func nextCheck(after now: Date, retrySoon: Bool) -> Date {
        let night = calendar.nextDate(after: now, matching: DateComponents(hour: checkHour, minute: 0, second: 0), matchingPolicy: .nextTime)
            ?? now.addingTimeInterval(24 * 3600)
        return retrySoon ? min(night, now.addingTimeInterval(retryAfter)) : night
    }

    /// What the staff's hidden rollback control offers: the words of its
    /// confirmation, and whether there is anything to confirm.
    struct RollBackOffer: Sendable, Equatable {
        /// The version to show instead, nil when there is none to go to.
        var target: String?
        var title: String
        var message: String
        /// The confirming button's label, with `target`.
        var confirm: String?
    }

    /// `current` and `previous` are the versions behind the store's link and
    /// the one it keeps for `rollBack()` (nil when none).
    static func rollBackOffer(current: String?, previous: String?, screen: Screen) -> RollBackOffer {
        // Opening or verifying reads the bundle the switch would replace.
        if screen == .busy {
            return RollBackOffer(title: "Not now", message: "The bundle is being opened or checked. Try again once it is shown.")
        }
        guard let current else {
            return RollBackOffer(title: "Nothing to go back to",
                                 message: "No version has been installed from the update channel: this is the bundle built into the app.")
        }
        guard let previous else {
            return RollBackOffer(title: "Nothing to go back to", message: "\(current) is installed, and no version before it is kept.")
        }
        return RollBackOffer(target: previous, title: "Show \(previous) instead of \(current)?",
                             message: "The kiosk switches now. The updater will not install \(current) again; a newer version published to the channel will be.",
                             confirm: "Show \(previous)")
    }

    /// The folders to open at launch, first to last: the version the
    /// updater installed, then the one built into the app.
    ///
    /// The installed one is the folder behind the store's link, not the
    /// link: a bundle reads its tiles as they come into view, through the
    /// path it was opened with, and an update switches the link while the
    /// old version is still on screen.
    static func folders(installed: URL?, shipped: URL?) -> [URL] {
        [installed, shipped].compactMap { $0 }
    }
}

import Foundation
@testable import MCPackKit
import MCPackSchema
import Testing

/// The channel's records as a reader decodes them (MCPackSchema, which the
/// app links): what each refuses, and the orders they keep.
@Suite struct PublishFormatTests {
    static let sha = String(repeating: "ab", count: 32)

    static func index(versions: [ChannelIndex.Version]? = nil) -> ChannelIndex {
        ChannelIndex(name: "magna-carta", sequence: 3, published: "2025-06-01T12:00:00Z", expires: "2025-07-01T12:00:00Z",
                     versions: versions ?? [version("1.0.0"), version("1.1.0")])
    }

    static func version(_ text: String, files: Int = 2, bytes: Int64 = 30) -> ChannelIndex.Version {
        ChannelIndex.Version(version: text, top: "magna-carta-\(text)", list: ChannelObject(sha256: sha, size: 120), files: files, bytes: bytes)
    }

    @Test func semanticVersionsAreOrderedByPrecedence() {
        let ordered = ["0.9.0", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
                       "1.0.0-rc.1", "1.0.0", "1.0.1", "1.2.0", "1.10.0", "2.0.0", "10.0.0", "123456789012345678901234567890.0.0"]
        for (a, b) in zip(ordered, ordered.dropFirst()) {
            #expect(SemanticOrder.compare(a, b) == .orderedAscending, "\(a) < \(b)")
            #expect(SemanticOrder.compare(b, a) == .orderedDescending, "\(b) > \(a)")
        }
        #expect(SemanticOrder.compare("1.0.0+build.1", "1.0.0+build.2") == .orderedSame)
        #expect(SemanticOrder.compare("1.0", "1.0.0") == nil)
        #expect(SemanticOrder.compare("01.0.0", "1.0.0") == nil)
    }

    @Test func anIndexRoundTripsAndIsWrittenWithSortedKeys() throws {
        let index = Self.index()
        let data = index.encoded()
        #expect(try ChannelIndex.decode(data) == index)
        let text = String(decoding: data, as: UTF8.self)
        let keys = ["\"expires\"", "\"format\"", "\"name\"", "\"published\"", "\"sequence\"", "\"versions\""].map { text.range(of: $0)!.lowerBound }
        #expect(keys == keys.sorted())
        // Unknown keys are a later format's additions: read past.
        let extended = text.replacingOccurrences(of: "\"format\"", with: "\"future\" : true,\n  \"format\"")
        #expect(try ChannelIndex.decode(Data(extended.utf8)) == index)
    }

    @Test func anIndexAReaderMustNotTrustIsRefusedSayingWhy() {
        func refused(_ change: (inout ChannelIndex) -> Void) -> String {
            var index = Self.index()
            change(&index)
            do { _ = try ChannelIndex.decode(index.encoded()); return "accepted" } catch { return error.message }
        }
        #expect(refused { $0.format = 2 }.contains("format 2"))
        #expect(refused { $0.name = "../etc" }.contains("not a bundle name"))
        #expect(refused { $0.sequence = 0 }.contains("sequence 0"))
        #expect(refused { $0.expires = "2025-07-01 12:00:00" }.contains("expires"))
        #expect(refused { $0.expires = "2025-07-01T12:00:00+02:00" }.contains("expires"))
        #expect(refused { $0.expires = $0.published }.contains("is not after published"))
        #expect(refused { $0.versions.reverse() }.contains("1.0.0 does not come after 1.1.0"))
        #expect(refused { $0.versions.append(Self.version("1.1.0+again")) }.contains("does not come after"))
        #expect(refused { $0.versions[0].version = "1.0" }.contains("not a semantic version"))
        #expect(refused { $0.versions[0].top = "../x" }.contains("not a folder name"))
        #expect(refused { $0.versions[0].top = "a/b" }.contains("not a folder name"))
        #expect(refused { $0.versions[0].list.sha256 = String(Self.sha.uppercased()) }.contains("64 lower-case hex"))
        #expect(refused { $0.versions[0].list.size = -1 }.contains("negative"))
        #expect(refused { _ in } == "accepted")
        let large = Data(repeating: 0x20, count: ChannelLimits.maxIndexBytes + 1)
        #expect(throws: ChannelFormatError.self) { try ChannelIndex.decode(large) }
        #expect(throws: ChannelFormatError.self) { try ChannelIndex.decode(Data("{\"format\":1}".utf8)) }
    }

    @Test func aFileListNamesOnlySafePathsOncePayloadUnderData() throws {
        let version = Self.version("1.0.0")
        func list(_ files: [ChannelFile], tags: [ChannelFile] = [ChannelFile(path: "bagit.txt", size: 10, sha256: sha)]) -> ChannelFileList {
            ChannelFileList(version: "1.0.0", top: "magna-carta-1.0.0", files: files, tags: tags)
        }
        let sha = Self.sha
        let good = list([ChannelFile(path: "data/a.json", size: 20, sha256: sha)])
        #expect(try ChannelFileList.decode(good.encoded(), for: version) == good)
        #expect(!String(decoding: good.encoded(), as: UTF8.self).contains("\n  "))

        func refused(_ candidate: ChannelFileList, for version: ChannelIndex.Version = Self.version("1.0.0")) -> String {
            do { try candidate.validate(for: version); return "accepted" } catch { return error.message }
        }
        for unsafe in ["data/../../etc/passwd", "/etc/passwd", "data//a", "data/./a", "~/a", "data/a\u{1B}b"] {
            #expect(refused(list([ChannelFile(path: unsafe, size: 20, sha256: sha)])).contains("not a safe path"), "\(unsafe)")
        }
        #expect(refused(list([ChannelFile(path: "elsewhere/a", size: 20, sha256: sha)])).contains("is not under data/"))
        #expect(refused(list([ChannelFile(path: "data/a", size: 20, sha256: sha)], tags: [ChannelFile(path: "data/b", size: 10, sha256: sha)]))
            .contains("it is payload, not a tag file"))
        var twice = list([ChannelFile(path: "data/a", size: 10, sha256: sha), ChannelFile(path: "data/a", size: 10, sha256: sha)])
        #expect(refused(twice, for: Self.version("1.0.0", files: 3)).contains("out of order or twice"))
        twice = list([ChannelFile(path: "data/A", size: 10, sha256: sha), ChannelFile(path: "data/a", size: 10, sha256: sha)])
        #expect(refused(twice, for: Self.version("1.0.0", files: 3)).contains("only by case"))
        #expect(refused(list([ChannelFile(path: "data/a", size: 21, sha256: sha)])).contains("the index says 2 of 30"))
        #expect(refused(good, for: Self.version("1.0.1")).contains("not 1.0.1"))
    }

    @Test func theTrustedCommentReadsBackOnlyInItsOwnShape() {
        let comment = ChannelTrustedComment(Self.index())
        #expect(comment.description == "channel:magna-carta sequence:3 expires:2025-07-01T12:00:00Z")
        #expect(ChannelTrustedComment.parse(comment.description) == comment)
        #expect(comment.matches(Self.index()))
        var later = Self.index()
        later.sequence = 4
        #expect(!comment.matches(later))
        for text in ["channel:magna-carta sequence:3", "channel:magna-carta sequence:03 expires:x", "bundle:x version:1.0.0 sha256:ab",
                     "channel:magna-carta  sequence:3 expires:2025-07-01T12:00:00Z"] {
            #expect(ChannelTrustedComment.parse(text) == nil, "\(text)")
        }
    }

    @Test func durationsAreWholeUnits() {
        #expect(ChannelDuration.parse("90m") == 5_400)
        #expect(ChannelDuration.parse("12h") == 43_200)
        #expect(ChannelDuration.parse("30d") == 2_592_000)
        #expect(ChannelDuration.parse("2w") == 1_209_600)
        for bad in ["", "d", "0d", "-1d", "1.5d", "7", "7 d", "7D", "3651d", "99999999999999d"] {
            #expect(ChannelDuration.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func timesAreUTCToTheSecondInOneForm() {
        let date = Date(timeIntervalSince1970: 1_748_779_200.75)
        #expect(ChannelTime.string(date) == "2025-06-01T12:00:00Z")
        #expect(ChannelTime.parse("2025-06-01T12:00:00Z") == Date(timeIntervalSince1970: 1_748_779_200))
        for bad in ["2025-06-01T12:00:00.5Z", "2025-06-01t12:00:00z", "2025-13-01T12:00:00Z", "2025-02-30T12:00:00Z", "20250601T120000Z"] {
            #expect(ChannelTime.parse(bad) == nil, "\(bad)")
        }
    }
}

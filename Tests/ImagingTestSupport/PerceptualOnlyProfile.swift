import CLCMS2
import Foundation
import Imaging

extension Image {
    /// An RGB input profile with perceptual tables only (A2B0, no A2B1), as
    /// many scanner profiles and jpegli's XYB are, that reads device
    /// (r, g, b) as the sRGB colour (g, b, r): a file converted with it
    /// differs from the same file taken as sRGB, so a skipped conversion
    /// shows. Made with Little CMS.
    package static func perceptualOnlyTestProfile() throws -> Data {
        // Little CMS's TYPE_RGB_16 and TYPE_Lab_16, macros of macros Swift
        // cannot import: COLORSPACE_SH(space) | CHANNELS_SH(3) | BYTES_SH(2).
        let rgb16 = cmsUInt32Number(PT_RGB) << 16 | 3 << 3 | 2
        let lab16 = cmsUInt32Number(PT_Lab) << 16 | 3 << 3 | 2
        let srgb = cmsCreate_sRGBProfile(), lab = cmsCreateLab4Profile(nil)
        defer {
            cmsCloseProfile(srgb)
            cmsCloseProfile(lab)
        }
        guard let rotating = cmsCreateTransform(srgb, rgb16, lab, lab16, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0) else {
            throw TestProfileError()
        }
        defer { cmsDeleteTransform(rotating) }
        let profile = cmsCreateProfilePlaceholder(nil)
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetDeviceClass(profile, cmsSigInputClass)
        cmsSetColorSpace(profile, cmsSigRgbData)
        cmsSetPCS(profile, cmsSigLabData)
        let pipeline = cmsPipelineAlloc(nil, 3, 3)
        defer { cmsPipelineFree(pipeline) }
        let clut = cmsStageAllocCLut16bit(nil, 33, 3, 3, nil)
        cmsStageSampleCLut16bit(clut, { input, output, cargo in
            guard let input, let cargo else { return 0 }
            var rgb: [cmsUInt16Number] = [input[1], input[2], input[0]]
            cmsDoTransform(cargo, &rgb, output, 1)
            return 1
        }, rotating, 0)
        // mAB (LutAToB) tables are A curves, a CLUT, B curves: identity
        // curves around the CLUT.
        cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
        cmsPipelineInsertStage(pipeline, cmsAT_END, clut)
        cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
        cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline))
        let name = cmsMLUalloc(nil, 1)
        defer { cmsMLUfree(name) }
        cmsMLUsetASCII(name, "en", "US", "Perceptual only (rotating)")
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(name))
        cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ())
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { throw TestProfileError() }
        var bytes = Data(count: Int(size))
        guard bytes.withUnsafeMutableBytes({ cmsSaveProfileToMem(profile, $0.baseAddress, &size) }) != 0 else { throw TestProfileError() }
        return bytes.prefix(Int(size))
    }
}

struct TestProfileError: Error, CustomStringConvertible {
    var description: String { "Little CMS could not make the test profile" }
}

#include "mcvips.h"
#include <lcms2.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Colour warnings seen so far: libvips warns, and carries on as if the
 * pixels were sRGB, when it cannot use an embedded profile ("fallback",
 * "does not support ... intent"); mcpack counts them around a conversion it
 * checks, so a conversion that did not happen is an error, not a record. */
static gint colour_warnings = 0;

static void quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    /* libvips's warnings ("Not enough image data") duplicate the errors
     * mcpack reports itself, with the file name, from vips_error_buffer. */
    if (message && (strstr(message, "intent") || strstr(message, "fallback") || strstr(message, "profile")))
        g_atomic_int_inc(&colour_warnings);
}

int mcvips_colour_warnings(void) {
    return g_atomic_int_get(&colour_warnings);
}

void mcvips_bound_malloc_arenas(int arenas) {
#ifdef __GLIBC__
    /* glibc gives each new thread its own arena and keeps what the thread
     * freed there: libvips's workers, passing tile buffers between threads,
     * and the threads that hash and write the tiles: with glibc's default
     * arenas a 34,000 px build peaked 60 MB above two arenas, and two
     * arenas 10 MB above one (one costs about 2% more time, the threads
     * sharing its lock). */
    mallopt(M_ARENA_MAX, arenas);
#else
    (void) arenas;
#endif
}

int mcvips_init(const char *argv0) {
    if (VIPS_INIT(argv0))
        return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, quiet, NULL);
    // Bounded memory matters more than re-use here: nothing is computed twice.
    vips_cache_set_max(0);
    return 0;
}

VipsImage *mcvips_image_new_from_file(const char *path, int sequential) {
    return vips_image_new_from_file(path,
        "access", sequential ? VIPS_ACCESS_SEQUENTIAL : VIPS_ACCESS_RANDOM,
        "fail_on", VIPS_FAIL_ON_ERROR,
        NULL);
}

VipsImage *mcvips_image_new_from_buffer(const void *buf, size_t len) {
    return vips_image_new_from_buffer(buf, len, "",
        "fail_on", VIPS_FAIL_ON_ERROR,
        NULL);
}

int mcvips_decode_all(VipsImage *image) {
    double mean;
    return vips_avg(image, &mean, NULL);
}

VipsImage *mcvips_new_solid(int width, int height, int bands, const double *ink) {
    VipsImage *black = NULL, *lit = NULL, *out = NULL;
    double zeros[16] = {0};
    if (bands < 1 || bands > 16)
        return NULL;
    if (vips_black(&black, width, height, "bands", bands, NULL))
        return NULL;
    if (vips_linear(black, &lit, zeros, (double *) ink, bands, NULL)) {
        g_object_unref(black);
        return NULL;
    }
    g_object_unref(black);
    VipsImage *cast = NULL;
    if (vips_cast_uchar(lit, &cast, NULL)) {
        g_object_unref(lit);
        return NULL;
    }
    g_object_unref(lit);
    /* Said to be sRGB (or grey), as a file of it would be read back. */
    int result = vips_copy(cast, &out, "interpretation", bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W, NULL);
    g_object_unref(cast);
    return result ? NULL : out;
}

VipsImage *mcvips_new_noise(int width, int height, int bands, int seed) {
    VipsImage **planes = g_new0(VipsImage *, bands);
    VipsImage *joined = NULL, *out = NULL;
    int ok = 1;
    for (int i = 0; i < bands && ok; i++)
        ok = vips_gaussnoise(&planes[i], width, height, "mean", 128.0, "sigma", 48.0, "seed", seed + i, NULL) == 0;
    if (ok)
        ok = vips_bandjoin(planes, &joined, bands, NULL) == 0;
    for (int i = 0; i < bands; i++)
        if (planes[i])
            g_object_unref(planes[i]);
    g_free(planes);
    if (!ok)
        return NULL;
    if (vips_cast_uchar(joined, &out, NULL))
        out = NULL;
    g_object_unref(joined);
    return out;
}

int mcvips_pngsave_buffer(VipsImage *image, void **buf, size_t *len, int compression) {
    return vips_pngsave_buffer(image, buf, len, "compression", compression, "strip", TRUE, NULL);
}

int mcvips_jpegsave_buffer(VipsImage *image, void **buf, size_t *len, int quality) {
    return vips_jpegsave_buffer(image, buf, len, "Q", quality, "strip", TRUE, NULL);
}

int mcvips_write_file(VipsImage *image, const char *path) {
    return vips_image_write_to_file(image, path, "strip", TRUE, NULL);
}

VipsImage *mcvips_arrayjoin(VipsImage **in, int n, int across) {
    VipsImage *out = NULL;
    if (vips_arrayjoin(in, &out, n, "across", across, NULL))
        return NULL;
    return out;
}

int mcvips_save_buffer(VipsImage *image, const char *suffix, void **buf, size_t *len) {
    return vips_image_write_to_buffer(image, suffix, buf, len, NULL);
}

typedef struct {
    mcvips_progress_fn fn;
    void *context;
} progress_closure;

static void on_eval(VipsImage *image, VipsProgress *progress, void *data) {
    progress_closure *closure = (progress_closure *) data;
    closure->fn(closure->context, progress->percent, progress->eta);
}

/* Both dzsave entry points: to a folder (`base`) or, as a stored zip, to
 * the descriptor `fd` (`base` is then the name inside the zip). */
static int dzsave(VipsImage *in, const char *base, int fd, int tile_size, int overlap,
                  const char *suffix, int iiif3, const char *id,
                  mcvips_progress_fn progress, void *context) {
    progress_closure closure = {progress, context};
    gulong handler = 0;
    if (progress) {
        vips_image_set_progress(in, TRUE);
        handler = g_signal_connect(in, "eval", G_CALLBACK(on_eval), &closure);
    }
    /* dzsave's workers wait in turn on the master's serial decode and on
     * creating each tile file; one worker more than the cores keeps both
     * cores busy (a 34,000 px master tiled about 1 s sooner on 2 cores,
     * for 9 MB more). A VIPS_CONCURRENCY the user set is left alone. The
     * setting is process-wide: a count of dzsaves running restores it only
     * when the last one ends. */
    static GMutex lock;
    static int running = 0;
    static int workers = 0;
    g_mutex_lock(&lock);
    if (running++ == 0) {
        workers = vips_concurrency_get();
        if (!g_getenv("VIPS_CONCURRENCY"))
            vips_concurrency_set(workers + 1);
    }
    g_mutex_unlock(&lock);
    /* The same pyramid either way: only where it goes differs. */
#define MCVIPS_DZ_OPTIONS \
        "layout", iiif3 ? VIPS_FOREIGN_DZ_LAYOUT_IIIF3 : VIPS_FOREIGN_DZ_LAYOUT_DZ, \
        "tile_size", tile_size, \
        "overlap", overlap, \
        "depth", VIPS_FOREIGN_DZ_DEPTH_ONEPIXEL, \
        "suffix", suffix, \
        "id", id ? id : "https://example.org/iiif", \
        "strip", TRUE
    int result = -1;
    if (fd < 0) {
        result = vips_dzsave(in, base, MCVIPS_DZ_OPTIONS, NULL);
    } else {
        VipsTarget *target = vips_target_new_to_descriptor(fd);
        if (target) {
            result = vips_dzsave_target(in, target, "basename", base, "container", VIPS_FOREIGN_DZ_CONTAINER_ZIP,
                                        "compression", 0, MCVIPS_DZ_OPTIONS, NULL);
            /* The target holds its own copy of the descriptor: the reader
             * sees the zip end only once it is closed, here. */
            g_object_unref(target);
        }
    }
#undef MCVIPS_DZ_OPTIONS
    g_mutex_lock(&lock);
    if (--running == 0)
        vips_concurrency_set(workers);
    g_mutex_unlock(&lock);
    if (handler)
        g_signal_handler_disconnect(in, handler);
    return result;
}

int mcvips_dzsave(VipsImage *in, const char *base, int tile_size, int overlap,
                  const char *suffix, int iiif3, const char *id,
                  mcvips_progress_fn progress, void *context) {
    return dzsave(in, base, -1, tile_size, overlap, suffix, iiif3, id, progress, context);
}

int mcvips_dzsave_zip(VipsImage *in, int fd, const char *name, int tile_size, int overlap,
                      const char *suffix, int iiif3, const char *id,
                      mcvips_progress_fn progress, void *context) {
    return dzsave(in, name, fd, tile_size, overlap, suffix, iiif3, id, progress, context);
}

void mcvips_kill(VipsImage *image) {
    vips_image_set_kill(image, TRUE);
}

VipsImage *mcvips_thumbnail(VipsImage *in, int width, int height, int crop) {
    VipsImage *out = NULL;
    if (crop) {
        if (vips_thumbnail_image(in, &out, width, "height", height, "size", VIPS_SIZE_BOTH,
                                 "crop", VIPS_INTERESTING_CENTRE, NULL))
            return NULL;
    } else {
        if (vips_thumbnail_image(in, &out, width, "height", height, "size", VIPS_SIZE_FORCE, NULL))
            return NULL;
    }
    return out;
}

VipsImage *mcvips_crop(VipsImage *in, int left, int top, int width, int height) {
    VipsImage *out = NULL;
    if (vips_extract_area(in, &out, left, top, width, height, NULL))
        return NULL;
    return out;
}

VipsImage *mcvips_flatten(VipsImage *in, double red, double green, double blue) {
    VipsImage *out = NULL;
    double background[3] = {red, green, blue};
    VipsArrayDouble *array = vips_array_double_new(background, 3);
    int result = vips_flatten(in, &out, "background", array, NULL);
    vips_area_unref(VIPS_AREA(array));
    return result ? NULL : out;
}

VipsImage *mcvips_composite_centre(VipsImage *base, VipsImage *overlay) {
    VipsImage *out = NULL;
    int x = (base->Xsize - overlay->Xsize) / 2;
    int y = (base->Ysize - overlay->Ysize) / 2;
    if (vips_composite2(base, overlay, &out, VIPS_BLEND_MODE_OVER, "x", x, "y", y, NULL))
        return NULL;
    return out;
}

VipsImage *mcvips_srgb(VipsImage *in) {
    VipsImage *colour = NULL, *out = NULL;
    if (vips_colourspace(in, &colour, VIPS_INTERPRETATION_sRGB, NULL))
        return NULL;
    int result = vips_cast_uchar(colour, &out, NULL);
    g_object_unref(colour);
    return result ? NULL : out;
}

/* 8-bit sRGB with an alpha band, so an RGB and an RGBA file of the same
 * picture compare equal. */
static VipsImage *rgba8(VipsImage *in, VipsObject *scope) {
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 3);
    if (vips_colourspace(in, &t[0], VIPS_INTERPRETATION_sRGB, NULL))
        return NULL;
    VipsImage *rgb = t[0];
    if (!vips_image_hasalpha(rgb)) {
        if (vips_bandjoin_const1(rgb, &t[1], 255.0, NULL))
            return NULL;
        rgb = t[1];
    }
    if (vips_cast_uchar(rgb, &t[2], NULL))
        return NULL;
    return t[2];
}

int mcvips_compare(VipsImage *a, VipsImage *b, int *same_size, double *changed, double *mean, double *largest) {
    *same_size = a->Xsize == b->Xsize && a->Ysize == b->Ysize;
    *changed = 0;
    *mean = 0;
    *largest = 0;
    if (!*same_size)
        return 0;
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 6);
    int result = -1;
    VipsImage *x = rgba8(a, scope), *y = rgba8(b, scope);
    if (x && y
        && !vips_subtract(x, y, &t[0], NULL)
        && !vips_abs(t[0], &t[1], NULL)
        && !vips_avg(t[1], mean, NULL)
        && !vips_max(t[1], largest, NULL)
        && !vips_bandbool(t[1], &t[2], VIPS_OPERATION_BOOLEAN_OR, NULL)
        && !vips_relational_const1(t[2], &t[3], VIPS_OPERATION_RELATIONAL_MORE, 0.0, NULL)
        && !vips_avg(t[3], changed, NULL)) {
        *changed /= 255.0;
        result = 0;
    }
    g_object_unref(scope);
    return result;
}

VipsImage *mcvips_difference_image(VipsImage *a, VipsImage *b) {
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 4);
    VipsImage *out = NULL;
    VipsImage *x = rgba8(a, scope), *y = rgba8(b, scope);
    if (x && y
        && !vips_subtract(x, y, &t[0], NULL)
        && !vips_abs(t[0], &t[1], NULL)
        && !vips_linear1(t[1], &t[2], 4.0, 0.0, NULL)
        && !vips_extract_band(t[2], &t[3], 0, "n", 3, NULL)
        && !vips_cast_uchar(t[3], &out, NULL)) {
        /* out holds references to what it is computed from. */
    }
    g_object_unref(scope);
    return out;
}

/* The Orientation tag (0x0112) of IFD0 in an EXIF block ("Exif\0\0" and a
 * TIFF structure), 0 when it has none. Bounds are checked at every read. */
static int exif_orientation(const unsigned char *p, size_t n) {
    if (n >= 6 && memcmp(p, "Exif\0\0", 6) == 0) {
        p += 6;
        n -= 6;
    }
    if (n < 8)
        return 0;
    int big = p[0] == 'M';
    if (!(p[0] == p[1] && (p[0] == 'M' || p[0] == 'I')))
        return 0;
#define U16(o) (big ? (p[o] << 8 | p[(o) + 1]) : (p[(o) + 1] << 8 | p[o]))
#define U32(o) (big ? ((size_t) p[o] << 24 | (size_t) p[(o) + 1] << 16 | (size_t) p[(o) + 2] << 8 | p[(o) + 3]) \
                    : ((size_t) p[(o) + 3] << 24 | (size_t) p[(o) + 2] << 16 | (size_t) p[(o) + 1] << 8 | p[o]))
    size_t ifd = U32(4);
    if (ifd + 2 > n)
        return 0;
    int count = U16(ifd);
    for (int i = 0; i < count; i++) {
        size_t entry = ifd + 2 + 12 * (size_t) i;
        if (entry + 12 > n)
            return 0;
        if (U16(entry) == 0x0112 && U16(entry + 2) == 3)
            return U16(entry + 8);
    }
#undef U16
#undef U32
    return 0;
}

/* ImageMagick and editors built on it keep EXIF in a PNG as a text chunk,
 * "Raw profile type exif": a line "exif", the length, then hex. libvips
 * reads only the eXIf chunk; the orientation in the text is set as the
 * image's, so autorot turns it as a viewer that reads the text would. */
static int png_text_orientation(VipsImage *image) {
    for (int i = 0; i < 16; i++) {
        char field[64];
        const char *text = NULL;
        snprintf(field, sizeof(field), "png-comment-%d-Raw profile type exif", i);
        if (!vips_image_get_typeof(image, field) || vips_image_get_string(image, field, &text) || !text)
            continue;
        /* Skip "\nexif\n", the decimal length and its newline; then hex. */
        const char *at = strstr(text, "exif");
        if (!at)
            return 0;
        at += 4;
        while (*at == '\n' || *at == ' ')
            at++;
        size_t length = strtoul(at, (char **) &at, 10);
        if (length == 0 || length > 1 << 20)
            return 0;
        unsigned char *bytes = g_malloc(length);
        size_t got = 0;
        while (*at && got < length) {
            int high = g_ascii_xdigit_value(*at);
            if (high < 0) { at++; continue; }
            int low = g_ascii_xdigit_value(at[1]);
            if (low < 0)
                break;
            bytes[got++] = (unsigned char) (high << 4 | low);
            at += 2;
        }
        int orientation = got == length ? exif_orientation(bytes, length) : 0;
        g_free(bytes);
        return orientation;
    }
    return 0;
}

int mcvips_orientation(VipsImage *image) {
    int orientation = 1;
    if (vips_image_get_typeof(image, VIPS_META_ORIENTATION)) {
        if (vips_image_get_int(image, VIPS_META_ORIENTATION, &orientation))
            return 1;
    } else if ((orientation = png_text_orientation(image)) >= 2 && orientation <= 8) {
        vips_image_set_int(image, VIPS_META_ORIENTATION, orientation);
    } else {
        orientation = 1;
    }
    return orientation >= 1 && orientation <= 8 ? orientation : 1;
}

VipsImage *mcvips_autorot(VipsImage *in) {
    VipsImage *out = NULL;
    /* An orientation kept only in a PNG's text becomes the image's first. */
    mcvips_orientation(in);
    if (vips_autorot(in, &out, NULL))
        return NULL;
    return out;
}

int mcvips_icc_profile(VipsImage *image, char *description, size_t size, char *space, int *intents) {
    const void *data = NULL;
    size_t length = 0;
    description[0] = '\0';
    *space = '?';
    *intents = 0;
    if (!vips_image_get_typeof(image, VIPS_META_ICC_NAME))
        return 0;
    if (vips_image_get_blob(image, VIPS_META_ICC_NAME, &data, &length) || length < 128)
        return -1;
    /* A profile cut short still opens: Little CMS reads its tags only when
     * a transform needs them. Its header says how long it is. */
    const unsigned char *bytes = data;
    size_t declared = ((size_t) bytes[0] << 24) | ((size_t) bytes[1] << 16) | ((size_t) bytes[2] << 8) | bytes[3];
    if (declared > length)
        return -1;
    cmsHPROFILE profile = cmsOpenProfileFromMem(data, (cmsUInt32Number) length);
    if (!profile) {
        vips_error_clear();
        return -1;
    }
    /* The intents it converts from, as libvips asks Little CMS before it
     * uses a profile (it refuses a profile without the intent asked). */
    static const int wanted[3] = {INTENT_PERCEPTUAL, INTENT_RELATIVE_COLORIMETRIC, INTENT_SATURATION};
    int first = -1;
    for (int i = 0; i < 3; i++)
        if (cmsIsIntentSupported(profile, wanted[i], LCMS_USED_AS_INPUT)) {
            *intents |= 1 << i;
            if (first < 0 || wanted[i] == INTENT_RELATIVE_COLORIMETRIC)
                first = wanted[i];
        }
    /* Every tag a conversion reads is read now: a damaged table fails here. */
    if (first >= 0) {
        cmsHPROFILE srgb = cmsCreate_sRGBProfile();
        cmsHTRANSFORM transform = cmsCreateTransform(profile, cmsFormatterForColorspaceOfProfile(profile, 2, FALSE),
                                                     srgb, TYPE_RGB_8, (cmsUInt32Number) first, 0);
        cmsCloseProfile(srgb);
        if (!transform) {
            cmsCloseProfile(profile);
            /* Little CMS's complaint went to libvips's error buffer: it must
             * not appear under a later, unrelated failure. */
            vips_error_clear();
            return -1;
        }
        cmsDeleteTransform(transform);
    }
    cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", description, (cmsUInt32Number) size);
    if (description[0] == '\0')
        cmsGetProfileInfoASCII(profile, cmsInfoDescription, cmsNoLanguage, cmsNoCountry, description, (cmsUInt32Number) size);
    switch (cmsGetColorSpace(profile)) {
    case cmsSigRgbData: *space = 'R'; break;
    case cmsSigCmykData: *space = 'C'; break;
    case cmsSigGrayData: *space = 'G'; break;
    case cmsSigLabData: *space = 'L'; break;
    case cmsSigXYZData: *space = 'X'; break;
    default: break;
    }
    cmsCloseProfile(profile);
    return 1;
}

/* The largest value a sample format holds: what white is at that depth. */
static double format_max(VipsBandFormat format) {
    switch (format) {
    case VIPS_FORMAT_USHORT: return 65535.0;
    case VIPS_FORMAT_SHORT: return 32767.0;
    case VIPS_FORMAT_UINT: return 4294967295.0;
    case VIPS_FORMAT_INT: return 2147483647.0;
    case VIPS_FORMAT_CHAR: return 127.0;
    default: return 255.0;
    }
}

VipsImage *mcvips_to_srgb8(VipsImage *in, int embedded, const char *input_profile, int intent) {
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 9);
    VipsImage *out = NULL;
    /* An 8-bit CIELab TIFF is read packed (LabQ); libvips's LabQ-to-sRGB
     * path is a coarse table that made L = 100 251 of 255. Unpacked to
     * float Lab first, it converts exactly. */
    if (in->Coding == VIPS_CODING_LABQ) {
        if (vips_LabQ2Lab(in, &t[8], NULL))
            goto done;
        in = t[8];
    }
    /* 32-bit and signed integer samples are scaled to 16 bits, rounding
     * (libvips's casts clip them: a 32-bit white would be 255 of 4294967295). */
    if (in->BandFmt == VIPS_FORMAT_UINT || in->BandFmt == VIPS_FORMAT_INT ||
        in->BandFmt == VIPS_FORMAT_SHORT || in->BandFmt == VIPS_FORMAT_CHAR) {
        int grey = in->Bands - (vips_image_hasalpha(in) ? 1 : 0) < 3;
        if (vips_linear1(in, &t[5], 65535.0 / format_max(in->BandFmt), 0.5, NULL) ||
            vips_cast(t[5], &t[6], VIPS_FORMAT_USHORT, NULL) ||
            vips_copy(t[6], &t[7], "interpretation", grey ? VIPS_INTERPRETATION_GREY16 : VIPS_INTERPRETATION_RGB16, NULL))
            goto done;
        in = t[7];
    }
    VipsImage *colour = in;
    /* The ICC path keeps extra (alpha) bands at the input's depth: scale
     * them to 8 bits beside the converted colour. */
    int alpha = vips_image_hasalpha(in);
    int colour_bands = in->Bands - (alpha ? 1 : 0);
    if ((embedded || input_profile) && alpha) {
        if (vips_extract_band(in, &t[0], 0, "n", colour_bands, NULL))
            goto done;
        colour = t[0];
    }
    if (embedded) {
        if (vips_icc_transform(colour, &t[1], "srgb", "embedded", TRUE, "intent", intent, "depth", 8, NULL))
            goto done;
    } else if (input_profile) {
        if (vips_icc_transform(colour, &t[1], "srgb", "input_profile", input_profile, "intent", intent, "depth", 8, NULL))
            goto done;
    } else if (in->BandFmt == VIPS_FORMAT_USHORT &&
               (in->Type == VIPS_INTERPRETATION_RGB16 || in->Type == VIPS_INTERPRETATION_GREY16)) {
        /* 16 bits to 8 by v / 257, rounded: libvips's colourspace drops the
         * low byte (v >> 8), one too high on part of the range. */
        VipsInterpretation target = in->Type == VIPS_INTERPRETATION_GREY16 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
        if (vips_linear1(in, &t[1], 1.0 / 257.0, 0.5, NULL) || vips_cast_uchar(t[1], &t[2], NULL) ||
            vips_copy(t[2], &out, "interpretation", target, NULL))
            out = NULL;
        goto done;
    } else {
        VipsInterpretation target = (in->Type == VIPS_INTERPRETATION_B_W || in->Type == VIPS_INTERPRETATION_GREY16)
            ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
        if (vips_colourspace(in, &t[1], target, NULL) || vips_cast_uchar(t[1], &out, NULL))
            goto done;
        goto done;
    }
    if (alpha) {
        /* Alpha at 16 bits (or float 0-1) to 0-255, rounded (the cast truncates). */
        double scale = in->BandFmt == VIPS_FORMAT_USHORT ? 1.0 / 257.0
            : (in->BandFmt == VIPS_FORMAT_FLOAT || in->BandFmt == VIPS_FORMAT_DOUBLE) ? 255.0 : 1.0;
        if (vips_extract_band(in, &t[2], colour_bands, "n", 1, NULL) ||
            vips_linear1(t[2], &t[3], scale, 0.5, "uchar", TRUE, NULL) ||
            vips_bandjoin2(t[1], t[3], &out, NULL))
            out = NULL;
    } else {
        out = t[1];
        g_object_ref(out);
    }
done:
    g_object_unref(scope);
    return out;
}

VipsImage *mcvips_icc_export(VipsImage *in, const char *profile, int depth) {
    VipsImage *out = NULL;
    if (vips_icc_transform(in, &out, profile, "input_profile", "srgb", "embedded", FALSE, "depth", depth,
                           "intent", VIPS_INTENT_RELATIVE, NULL))
        return NULL;
    return out;
}

VipsImage *mcvips_rotate(VipsImage *in, int quarters) {
    static const VipsAngle angles[4] = {VIPS_ANGLE_D0, VIPS_ANGLE_D90, VIPS_ANGLE_D180, VIPS_ANGLE_D270};
    VipsImage *out = NULL;
    if (vips_rot(in, &out, angles[((quarters % 4) + 4) % 4], NULL))
        return NULL;
    return out;
}

VipsImage *mcvips_with_orientation(VipsImage *in, int orientation) {
    VipsImage *out = NULL;
    if (vips_copy(in, &out, NULL))
        return NULL;
    vips_image_set_int(out, VIPS_META_ORIENTATION, orientation);
    return out;
}

VipsImage *mcvips_colourspace(VipsImage *in, int interpretation) {
    VipsImage *out = NULL;
    if (vips_colourspace(in, &out, (VipsInterpretation) interpretation, NULL))
        return NULL;
    return out;
}

int mcvips_write_file_keeping_metadata(VipsImage *image, const char *path) {
    return vips_image_write_to_file(image, path, NULL);
}

int mcvips_band_mean(VipsImage *image, int band, double *mean) {
    VipsImage *one = NULL;
    if (vips_extract_band(image, &one, band, NULL))
        return -1;
    int result = vips_avg(one, mean, NULL);
    g_object_unref(one);
    return result;
}

int mcvips_block_difference(VipsImage *a, VipsImage *b, int block, float **values, int *columns, int *rows) {
    *values = NULL;
    *columns = 0;
    *rows = 0;
    if (a->Xsize != b->Xsize || a->Ysize != b->Ysize || block < 1) {
        vips_error("mcvips", "%s", "the images differ in size");
        return -1;
    }
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **t = (VipsImage **) vips_object_local_array(scope, 5);
    int result = -1;
    /* A block never larger than the image: a 1 x 1 top tile is one block. */
    double across = MIN(block, a->Xsize), down = MIN(block, a->Ysize);
    /* Two tiles of one pyramid are alike (8-bit sRGB, same bands): compared
     * as they are, without the conversions that make any two pictures
     * comparable, which cost more than the decode on thousands of tiles. */
    int alike = a->BandFmt == VIPS_FORMAT_UCHAR && b->BandFmt == VIPS_FORMAT_UCHAR && a->Bands == b->Bands
        && a->Type == VIPS_INTERPRETATION_sRGB && b->Type == VIPS_INTERPRETATION_sRGB;
    VipsImage *x = alike ? a : rgba8(a, scope), *y = alike ? b : rgba8(b, scope);
    if (x && y
        && !vips_subtract(x, y, &t[0], NULL)
        && !vips_cast_float(t[0], &t[1], NULL)
        && !vips_shrink(t[1], &t[2], across, down, NULL)
        && !vips_abs(t[2], &t[3], NULL)) {
        size_t size = 0;
        float *pixels = (float *) vips_image_write_to_memory(t[3], &size);
        if (pixels) {
            int width = t[3]->Xsize, height = t[3]->Ysize, bands = t[3]->Bands;
            float *out = g_new0(float, (size_t) width * height);
            for (int i = 0; i < width * height; i++)
                for (int k = 0; k < bands; k++)
                    out[i] = MAX(out[i], pixels[(size_t) i * bands + k]);
            g_free(pixels);
            *values = out;
            *columns = width;
            *rows = height;
            result = 0;
        }
    }
    g_object_unref(scope);
    return result;
}

VipsImage *mcvips_insert(VipsImage *base, VipsImage *sub, int left, int top) {
    VipsImage *out = NULL;
    if (vips_insert(base, sub, &out, left, top, NULL))
        return NULL;
    return out;
}

/* For tests: an RGB input profile with perceptual tables only (A2B0, no
 * A2B1), as many scanner profiles and jpegli's XYB are, that reads device
 * (r, g, b) as the sRGB colour (g, b, r): a file converted with it differs
 * from the same file taken as sRGB, so a skipped conversion shows. */
static cmsHTRANSFORM rotating_transform;

static cmsInt32Number rotating_sampler(const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo) {
    cmsUInt16Number rgb[3] = {in[1], in[2], in[0]};
    cmsDoTransform(rotating_transform, rgb, out, 1);
    return TRUE;
}

int mcvips_test_perceptual_profile(void **data, size_t *length) {
    cmsHPROFILE srgb = cmsCreate_sRGBProfile(), lab = cmsCreateLab4Profile(NULL);
    rotating_transform = cmsCreateTransform(srgb, TYPE_RGB_16, lab, TYPE_Lab_16, INTENT_RELATIVE_COLORIMETRIC, 0);
    cmsHPROFILE profile = cmsCreateProfilePlaceholder(NULL);
    cmsSetProfileVersion(profile, 4.3);
    cmsSetDeviceClass(profile, cmsSigInputClass);
    cmsSetColorSpace(profile, cmsSigRgbData);
    cmsSetPCS(profile, cmsSigLabData);
    cmsPipeline *pipeline = cmsPipelineAlloc(NULL, 3, 3);
    cmsStage *clut = cmsStageAllocCLut16bit(NULL, 33, 3, 3, NULL);
    cmsStageSampleCLut16bit(clut, rotating_sampler, NULL, 0);
    /* mAB (LutAToB) tables are A curves, a CLUT, B curves: identity curves
     * around the CLUT. */
    cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(NULL, 3, NULL));
    cmsPipelineInsertStage(pipeline, cmsAT_END, clut);
    cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(NULL, 3, NULL));
    cmsWriteTag(profile, cmsSigAToB0Tag, pipeline);
    cmsMLU *name = cmsMLUalloc(NULL, 1);
    cmsMLUsetASCII(name, "en", "US", "Perceptual only (rotating)");
    cmsWriteTag(profile, cmsSigProfileDescriptionTag, name);
    cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ());
    cmsUInt32Number size = 0;
    int ok = cmsSaveProfileToMem(profile, NULL, &size) && size > 0;
    if (ok) {
        *data = g_malloc(size);
        ok = cmsSaveProfileToMem(profile, *data, &size);
        *length = size;
    }
    cmsMLUfree(name);
    cmsPipelineFree(pipeline);
    cmsCloseProfile(profile);
    cmsDeleteTransform(rotating_transform);
    cmsCloseProfile(srgb);
    cmsCloseProfile(lab);
    return ok ? 0 : -1;
}

VipsImage *mcvips_with_profile(VipsImage *in, const void *data, size_t length) {
    VipsImage *out = NULL;
    if (vips_copy(in, &out, NULL))
        return NULL;
    vips_image_set_blob_copy(out, VIPS_META_ICC_NAME, data, length);
    return out;
}

VipsImage *mcvips_test_deepen(VipsImage *in, int format, double factor) {
    VipsImage *scaled = NULL, *out = NULL;
    if (vips_linear1(in, &scaled, factor, 0.0, NULL))
        return NULL;
    int failed = vips_cast(scaled, &out, (VipsBandFormat) format, NULL);
    g_object_unref(scaled);
    if (failed)
        return NULL;
    VipsImage *typed = NULL;
    int grey = in->Bands < 3;
    failed = vips_copy(out, &typed, "interpretation", format == VIPS_FORMAT_USHORT
                       ? (grey ? VIPS_INTERPRETATION_GREY16 : VIPS_INTERPRETATION_RGB16)
                       : (grey ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB), NULL);
    g_object_unref(out);
    return failed ? NULL : typed;
}

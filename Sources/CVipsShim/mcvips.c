#include "mcvips.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Every libvips and GLib function this file calls, reached through a pointer
 * found when libvips is loaded. On Linux nothing links libvips, so a call to
 * one not listed here fails the link with an undefined reference; on macOS,
 * where libvips is linked, it would bind directly. (`make test` checks that
 * a diff loads no libvips.) */
#define MCVIPS_FUNCTIONS(X) \
    X(g_free) X(g_getenv) X(g_log) X(g_log_set_handler) X(g_malloc0_n) X(g_mutex_lock) \
    X(g_mutex_unlock) X(g_object_unref) X(g_signal_connect_data) \
    X(g_signal_handler_disconnect) X(g_type_check_instance_cast) X(vips_abs) \
    X(vips_area_unref) X(vips_array_double_new) X(vips_avg) X(vips_bandbool) \
    X(vips_bandjoin) X(vips_bandjoin_const1) X(vips_black) X(vips_cache_set_max) \
    X(vips_cast_uchar) X(vips_colourspace) X(vips_composite2) X(vips_concurrency_get) \
    X(vips_concurrency_set) X(vips_dzsave) X(vips_error) X(vips_error_buffer) X(vips_error_clear) \
    X(vips_extract_area) X(vips_extract_band) X(vips_flatten) X(vips_gaussnoise) X(vips_image_copy_memory) \
    X(vips_image_get_bands) X(vips_image_get_height) X(vips_image_get_string) \
    X(vips_image_get_typeof) X(vips_image_get_width) X(vips_image_hasalpha) \
    X(vips_image_new) X(vips_image_new_from_buffer) X(vips_image_new_from_file) \
    X(vips_image_set_progress) X(vips_image_write_to_file) X(vips_init) \
    X(vips_jpegsave_buffer) X(vips_linear) X(vips_linear1) X(vips_object_get_type) \
    X(vips_object_local_array) X(vips_pngsave_buffer) X(vips_relational_const1) \
    X(vips_subtract) X(vips_thumbnail_image) X(vips_version) X(vips_version_string)

#define X(name) static __typeof__(name) *mcvips_fn_##name;
MCVIPS_FUNCTIONS(X)
#undef X

/* From here on each name means its pointer, also inside libvips's and
 * GLib's macros (VIPS_INIT, VIPS_OBJECT, g_signal_connect, g_new0). */
#define g_free (*mcvips_fn_g_free)
#define g_getenv (*mcvips_fn_g_getenv)
#define g_log (*mcvips_fn_g_log)
#define g_log_set_handler (*mcvips_fn_g_log_set_handler)
#define g_malloc0_n (*mcvips_fn_g_malloc0_n)
#define g_mutex_lock (*mcvips_fn_g_mutex_lock)
#define g_mutex_unlock (*mcvips_fn_g_mutex_unlock)
#define g_object_unref (*mcvips_fn_g_object_unref)
#define g_signal_connect_data (*mcvips_fn_g_signal_connect_data)
#define g_signal_handler_disconnect (*mcvips_fn_g_signal_handler_disconnect)
#define g_type_check_instance_cast (*mcvips_fn_g_type_check_instance_cast)
#define vips_abs (*mcvips_fn_vips_abs)
#define vips_area_unref (*mcvips_fn_vips_area_unref)
#define vips_array_double_new (*mcvips_fn_vips_array_double_new)
#define vips_avg (*mcvips_fn_vips_avg)
#define vips_bandbool (*mcvips_fn_vips_bandbool)
#define vips_bandjoin (*mcvips_fn_vips_bandjoin)
#define vips_bandjoin_const1 (*mcvips_fn_vips_bandjoin_const1)
#define vips_black (*mcvips_fn_vips_black)
#define vips_cache_set_max (*mcvips_fn_vips_cache_set_max)
#define vips_cast_uchar (*mcvips_fn_vips_cast_uchar)
#define vips_colourspace (*mcvips_fn_vips_colourspace)
#define vips_composite2 (*mcvips_fn_vips_composite2)
#define vips_concurrency_get (*mcvips_fn_vips_concurrency_get)
#define vips_concurrency_set (*mcvips_fn_vips_concurrency_set)
#define vips_dzsave (*mcvips_fn_vips_dzsave)
#define vips_error (*mcvips_fn_vips_error)
#define vips_error_buffer (*mcvips_fn_vips_error_buffer)
#define vips_error_clear (*mcvips_fn_vips_error_clear)
#define vips_extract_area (*mcvips_fn_vips_extract_area)
#define vips_extract_band (*mcvips_fn_vips_extract_band)
#define vips_flatten (*mcvips_fn_vips_flatten)
#define vips_gaussnoise (*mcvips_fn_vips_gaussnoise)
#define vips_image_copy_memory (*mcvips_fn_vips_image_copy_memory)
#define vips_image_get_bands (*mcvips_fn_vips_image_get_bands)
#define vips_image_get_height (*mcvips_fn_vips_image_get_height)
#define vips_image_get_string (*mcvips_fn_vips_image_get_string)
#define vips_image_get_typeof (*mcvips_fn_vips_image_get_typeof)
#define vips_image_get_width (*mcvips_fn_vips_image_get_width)
#define vips_image_hasalpha (*mcvips_fn_vips_image_hasalpha)
#define vips_image_new (*mcvips_fn_vips_image_new)
#define vips_image_new_from_buffer (*mcvips_fn_vips_image_new_from_buffer)
#define vips_image_new_from_file (*mcvips_fn_vips_image_new_from_file)
#define vips_image_set_progress (*mcvips_fn_vips_image_set_progress)
#define vips_image_write_to_file (*mcvips_fn_vips_image_write_to_file)
#define vips_init (*mcvips_fn_vips_init)
#define vips_jpegsave_buffer (*mcvips_fn_vips_jpegsave_buffer)
#define vips_linear (*mcvips_fn_vips_linear)
#define vips_linear1 (*mcvips_fn_vips_linear1)
#define vips_object_get_type (*mcvips_fn_vips_object_get_type)
#define vips_object_local_array (*mcvips_fn_vips_object_local_array)
#define vips_pngsave_buffer (*mcvips_fn_vips_pngsave_buffer)
#define vips_relational_const1 (*mcvips_fn_vips_relational_const1)
#define vips_subtract (*mcvips_fn_vips_subtract)
#define vips_thumbnail_image (*mcvips_fn_vips_thumbnail_image)
#define vips_version (*mcvips_fn_vips_version)
#define vips_version_string (*mcvips_fn_vips_version_string)

/* libvips's soname per platform; where mcpack was linked to it anyway
 * (macOS), its functions are found in the process without a dlopen. */
static const char *const library_names[] = {
#ifdef __APPLE__
    "libvips.42.dylib", "/opt/homebrew/lib/libvips.42.dylib", "/usr/local/lib/libvips.42.dylib",
#else
    "libvips.so.42",
#endif
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[512];

static void load(void) {
    void *library = dlsym(RTLD_DEFAULT, "vips_init") ? RTLD_DEFAULT : NULL;
    for (size_t i = 0; !library && i < sizeof library_names / sizeof *library_names; i++)
        library = dlopen(library_names[i], RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "libvips could not be loaded (%s); install it (Debian, Ubuntu: apt install libvips-dev; macOS: brew install vips)",
                 why ? why : library_names[0]);
        return;
    }
#define X(name) \
    if (!(mcvips_fn_##name = (__typeof__(mcvips_fn_##name)) dlsym(library, #name))) { \
        snprintf(load_error, sizeof load_error, "the libvips found lacks %s; mcpack needs libvips 8.12 or later", #name); \
        return; \
    }
    MCVIPS_FUNCTIONS(X)
#undef X
    loaded = 1;
}

static int ensure_loaded(void) {
    pthread_once(&load_once, load);
    return loaded;
}

static void quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    /* libvips's warnings ("Not enough image data") duplicate the errors
     * mcpack reports itself, with the file name, from vips_error_buffer. */
}

void mcvips_bound_malloc_arenas(int arenas) {
#ifdef __GLIBC__
    /* glibc gives each new thread its own arena and keeps what the thread
     * freed there: libvips's workers, passing tile buffers between threads,
     * left a 34,000 px build 40 MB above the same work with two arenas. */
    mallopt(M_ARENA_MAX, arenas);
#else
    (void) arenas;
#endif
}

int mcvips_init(const char *argv0) {
    if (!ensure_loaded())
        return -1;
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

const char *mcvips_loader(VipsImage *image) {
    const char *name = NULL;
    if (vips_image_get_typeof(image, VIPS_META_LOADER) == 0)
        return NULL;
    if (vips_image_get_string(image, VIPS_META_LOADER, &name))
        return NULL;
    return name;
}

int mcvips_decode_all(VipsImage *image) {
    double mean;
    return vips_avg(image, &mean, NULL);
}

VipsImage *mcvips_copy_memory(VipsImage *image) {
    return vips_image_copy_memory(image);
}

char *mcvips_take_error(void) {
    if (!ensure_loaded())
        return strdup(load_error);
    char *text = strdup(vips_error_buffer());
    vips_error_clear();
    return text;
}

const char *mcvips_version_string(void) {
    return ensure_loaded() ? vips_version_string() : NULL;
}

void mcvips_unref(VipsImage *image) {
    g_object_unref(image);
}

void mcvips_free(void *pointer) {
    g_free(pointer);
}

int mcvips_width(VipsImage *image) {
    return vips_image_get_width(image);
}

int mcvips_height(VipsImage *image) {
    return vips_image_get_height(image);
}

int mcvips_bands(VipsImage *image) {
    return vips_image_get_bands(image);
}

int mcvips_has_alpha(VipsImage *image) {
    return vips_image_hasalpha(image);
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
    if (vips_cast_uchar(lit, &out, NULL)) {
        g_object_unref(lit);
        return NULL;
    }
    g_object_unref(lit);
    return out;
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

typedef struct {
    mcvips_progress_fn fn;
    void *context;
} progress_closure;

static void on_eval(VipsImage *image, VipsProgress *progress, void *data) {
    progress_closure *closure = (progress_closure *) data;
    closure->fn(closure->context, progress->percent, progress->eta);
}

int mcvips_dzsave(VipsImage *in, const char *base, int tile_size, int overlap,
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
    int result = vips_dzsave(in, base,
        "layout", iiif3 ? VIPS_FOREIGN_DZ_LAYOUT_IIIF3 : VIPS_FOREIGN_DZ_LAYOUT_DZ,
        "tile_size", tile_size,
        "overlap", overlap,
        "depth", VIPS_FOREIGN_DZ_DEPTH_ONEPIXEL,
        "suffix", suffix,
        "id", id ? id : "https://example.org/iiif",
        "strip", TRUE,
        NULL);
    g_mutex_lock(&lock);
    if (--running == 0)
        vips_concurrency_set(workers);
    g_mutex_unlock(&lock);
    if (handler)
        g_signal_handler_disconnect(in, handler);
    return result;
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

int mcvips_compare(VipsImage *a, VipsImage *b, int *same_size, double *changed, double *mean) {
    *same_size = a->Xsize == b->Xsize && a->Ysize == b->Ysize;
    *changed = 0;
    *mean = 0;
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

#!/usr/bin/env python3
"""Drives headless Chromium (Selenium + chromedriver) over the built web example, once per
backend: waits for `DONE {json}` in document.title, checks the steady counters (0 bind groups
created, 0 bytes uploaded over the checked frames), the read-back pixels the page reports and
the same pixels in a screenshot of the canvas, and the auto-bundles: the steady frames replay
their draws from the render bundles vgpu records for them (none with auto-bundles off; the
frames whose pixels are checked are replayed ones). One line per backend, then one line
`auto-bundles (WebGPU): D draws replayed per steady frame; encode median on X µs / off Y µs`
(WebGL2 likewise); exit status 1 on a failure. WebGPU is skipped (not failed) when the browser
gives no adapter.

Then, per backend that ran, the app runner's page (`app.html`: `vgpu::app::run` in the canvas,
writing `FRAME {json}` into the title every frame): its surface is the canvas's CSS size ×
devicePixelRatio; the test changes the canvas's CSS size and checks that the surface follows
within a few frames, the runner reported the resize, and the red square (drawn with the
surface's aspect) is still square in a screenshot. One line `web app <backend>: …` each.

usage: browser_test.py URL [backend ...]   (backends: webgl, webgpu; default both)
"""
import json
import struct
import sys
import time
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

# Expected pixels (x, y, rgba) of a steady frame, in canvas pixels: the page's scene::PROBES,
# written out again here from the geometry (three 64x64 views: front, shifted, zoomed out).
PROBES = [
    (16, 48, (255, 0, 0, 255)), (48, 48, (0, 255, 0, 255)),
    (32, 16, (0, 0, 255, 255)), (4, 4, (0, 0, 0, 255)),
    (88, 40, (255, 0, 0, 255)), (120, 40, (0, 255, 0, 255)),
    (104, 8, (0, 0, 255, 255)), (80, 48, (0, 0, 0, 255)),
    (152, 40, (255, 0, 0, 255)), (168, 40, (0, 255, 0, 255)),
    (160, 24, (0, 0, 255, 255)), (144, 48, (0, 0, 0, 255)),
]
FLAGS = [
    "--headless=new", "--no-sandbox", "--enable-unsafe-webgpu", "--enable-features=Vulkan",
    "--use-vulkan=swiftshader", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--window-size=400,300", "--force-device-scale-factor=1", "--disable-gpu-sandbox",
]
TIMEOUT_S = 60
BACKEND_NAMES = {"webgl": "WebGL2", "webgpu": "WebGPU"}


def auto_bundles(backend, auto):
    """(the auto-bundle line, problems) for the page's `auto_bundles` figures.

    Both backends replay: WebGPU records native GPURenderBundles; on WebGL2, wgpu's GL backend
    emulates render bundles (wgpu-core records the bundle's commands once and replays them into
    the pass), so vgpu counts the draws replayed there too."""
    frames, expected = auto["frames"], auto["draws_per_frame_expected"]
    per_frame = auto["draws"] / frames if frames else 0
    per_frame_text = f"{per_frame:g}" if per_frame == int(per_frame) else f"{per_frame:.1f}"
    clock = "5 µs clock, cross-origin isolated" if auto["cross_origin_isolated"] else "100 µs clock"
    line = (
        f"auto-bundles ({BACKEND_NAMES[backend]}): {per_frame_text} draws replayed per steady frame; "
        f"encode median on {auto['encode_us_on']:g} µs / off {auto['encode_us_off']:g} µs "
        f"({frames} frames each, {expected} draws per frame, {clock})"
    )
    problems = []
    if per_frame <= 0:
        problems.append(f"no draw replayed from auto-bundles in the steady frames "
                        f"(first pass recorded directly: {auto['first_direct']})")
    elif auto["draws"] != frames * expected:
        problems.append(f"{auto['draws']} draws replayed over {frames} steady frames, expected "
                        f"{frames * expected} ({auto['direct_passes']} passes recorded directly, "
                        f"the first: {auto['first_direct']})")
    if auto["draws_off"]:
        problems.append(f"{auto['draws_off']} draws replayed with auto-bundles off")
    # The frames whose pixels are checked: the canvas's last frame (screenshot), the read-back.
    if auto["rewarmed_draws"] != expected:
        problems.append(f"the canvas's last frame replayed {auto['rewarmed_draws']} draws, "
                        f"expected {expected}")
    if auto["read_back_draws"] != expected:
        problems.append(f"the frame read back replayed {auto['read_back_draws']} draws, "
                        f"expected {expected}")
    return line, problems


def decode_png(data):
    """RGBA rows of an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium's screenshots are)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, "unsupported PNG"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    channels = 4 if color == 6 else 3
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    def pixel(x, y):
        px = rows[y][x * channels:(x + 1) * channels]
        return tuple(px) + ((255,) if channels == 3 else ())
    return width, height, pixel


def run(url, backend, driver):
    """('ok' | 'skip' | 'fail', line, auto-bundle line or None)."""
    driver.get(f"{url}?backend={backend}")
    deadline, title = time.time() + TIMEOUT_S, ""
    while time.time() < deadline:
        title = driver.title
        if title.startswith(("DONE ", "ERROR ")):
            break
        time.sleep(0.1)
    else:
        return "fail", f"no result after {TIMEOUT_S} s (title {title!r})", None
    verb, _, body = title.partition(" ")
    result = json.loads(body)
    if verb == "ERROR":
        no_adapter = result.get("code") == "VGPU-DEVICE-NO-ADAPTER"
        if backend == "webgpu" and no_adapter:
            return "skip", f"the browser gives no WebGPU adapter ({result.get('message')})", None
        return "fail", f"{result.get('code')}: {result.get('message')}", None
    problems = []
    expected_backend = {"webgl": "Gl", "webgpu": "BrowserWebGpu"}[backend]
    if result["backend"] != expected_backend:
        problems.append(f"backend {result['backend']}, expected {expected_backend}")
    checked = result["checked"]
    if (checked["bind_groups_created"], checked["bytes_uploaded"]) != (0, 0):
        problems.append(f"steady frames not steady: {checked}")
    if result["first_frame"]["bind_groups_created"] == 0:
        problems.append("the first frame created no bind group (nothing counted?)")
    # WebGPU's map completes only when the browser returns to its event loop: a blocking read-back
    # must refuse with VGPU-DEVICE-WOULD-BLOCK (WebGL2 may have finished already).
    if backend == "webgpu" and result["blocking_read"] != "VGPU-DEVICE-WOULD-BLOCK":
        problems.append(f"blocking read-back gave {result['blocking_read']}, expected VGPU-DEVICE-WOULD-BLOCK")
    if checked["auto_bundle_draws"] == 0:
        problems.append("the last steady frames of the first 60 replayed no draw from auto-bundles")
    auto_line, auto_problems = auto_bundles(backend, result["auto_bundles"])
    problems += auto_problems
    if result["skipped_frames"]:
        problems.append(f"{result['skipped_frames']} frame(s) skipped")
    reported = {(p["x"], p["y"]): tuple(p["rgba"]) for p in result["pixels"]}
    shot_w, shot_h, shot = decode_png(driver.get_screenshot_as_png())
    for x, y, rgba in PROBES:
        if reported.get((x, y)) != rgba:
            problems.append(f"read-back ({x},{y}) = {reported.get((x, y))}, expected {rgba}")
        on_screen = shot(x, y) if x < shot_w and y < shot_h else None
        if on_screen != rgba:
            problems.append(f"canvas ({x},{y}) = {on_screen}, expected {rgba}")
    summary = (
        f"adapter {result['adapter']!r} ({result['backend']}, surface {result['surface_format']}), "
        f"{result['frames']} frames ({result['animated_frames']} animated), "
        f"last {result['checked_frames']}: {checked['bind_groups_created']} bind groups created, "
        f"{checked['bytes_uploaded']} bytes uploaded, {checked['auto_bundle_draws']} draws "
        f"replayed from auto-bundles; first frame: "
        f"{result['first_frame']['bind_groups_created']} bind groups, "
        f"{result['first_frame']['bytes_uploaded']} bytes; {len(PROBES)} pixels checked in the "
        f"read-back and in the canvas screenshot; blocking read-back: {result['blocking_read']}"
    )
    if problems:
        return "fail", summary + "\n    " + "\n    ".join(problems), auto_line
    return "ok", summary, auto_line


def app_title(driver, until, what):
    """The parsed `FRAME {json}` title once `until(json)` holds; raises on ERROR or timeout."""
    deadline, title = time.time() + TIMEOUT_S, ""
    while time.time() < deadline:
        title = driver.title
        if title.startswith("ERROR "):
            raise RuntimeError(f"the page failed: {title[6:]}")
        if title.startswith("FRAME "):
            frame = json.loads(title[6:])
            if until(frame):
                return frame
        time.sleep(0.05)
    logs = ""
    try:
        logs = "; console: " + " | ".join(e["message"] for e in driver.get_log("browser"))
    except Exception:  # noqa: BLE001 - the logs only explain the timeout
        pass
    raise RuntimeError(f"{what}: not after {TIMEOUT_S} s (title {title!r}){logs}")


def red_square(driver):
    """Width and height of the red pixels' bounding box in a screenshot of the page."""
    width, height, pixel = decode_png(driver.get_screenshot_as_png())
    xs, ys = [], []
    for y in range(min(height, 400)):
        for x in range(min(width, 400)):
            r, g, b, _ = pixel(x, y)
            if r > 200 and g < 60 and b < 60:
                xs.append(x)
                ys.append(y)
    if not xs:
        return 0, 0
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def run_app(url, backend, driver):
    """('ok' | 'fail', line) for the app runner's page: the surface follows a CSS resize."""
    driver.get(url.rsplit("/", 1)[0] + f"/app.html?backend={backend}")
    problems = []

    def follows(frame):
        want = [round(frame["css"][0] * frame["dpr"]), round(frame["css"][1] * frame["dpr"])]
        return frame["surface"] == want

    first = app_title(driver, lambda f: f["frame"] >= 5 and follows(f), "the first frames at the canvas's size")
    before = red_square(driver)
    driver.execute_script(
        "const c = document.getElementById('canvas'); c.style.width = '240px'; c.style.height = '100px';"
    )
    resized = app_title(
        driver,
        lambda f: f["css"] == [240, 100] and follows(f) and f["frame"] >= first["frame"] + 3,
        "the surface at the canvas's new CSS size",
    )
    after = red_square(driver)
    if resized["resizes"] <= first["resizes"]:
        problems.append(f"the runner reported no resize ({first['resizes']} -> {resized['resizes']})")
    # A redraw before the browser first measured the canvas (size 0) is skipped, as a minimized
    # window's; none after.
    if resized["skipped"] != first["skipped"]:
        problems.append(f"{resized['skipped'] - first['skipped']} frame(s) skipped at the resize")
    # The square is half the canvas's height, in CSS pixels (a device pixel ratio of 1 here).
    for (w, h), css in ((before, first["css"]), (after, resized["css"])):
        if abs(w - h) > 1 or abs(h - css[1] / 2) > 2:
            problems.append(f"the square is {w}x{h} in a {css[0]}x{css[1]} canvas (expected {css[1] / 2:g} square)")
    line = (
        f"{resized['backend']}: surface {first['surface']} at CSS {first['css']} x dpr {first['dpr']:g}, "
        f"then {resized['surface']} at CSS {resized['css']} within {resized['frame'] - first['frame']} "
        f"frames ({resized['resizes']} resizes reported, {first['skipped']} redraw(s) skipped before the "
        f"canvas was measured); square {before[0]}x{before[1]} -> {after[0]}x{after[1]}"
    )
    if problems:
        return "fail", line + "\n    " + "\n    ".join(problems)
    return "ok", line


def main():
    url, backends = sys.argv[1], sys.argv[2:] or ["webgl", "webgpu"]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/lib/chromium/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for flag in FLAGS:
        options.add_argument(flag)
    failed = False
    for backend in backends:
        # A fresh browser per backend: a lost GPU process in one run cannot spoil the next.
        driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        try:
            driver.set_page_load_timeout(TIMEOUT_S)
            status, line, auto_line = run(url, backend, driver)
        except Exception as e:  # noqa: BLE001 - reported as this backend's failure
            status, line, auto_line = "fail", f"{type(e).__name__}: {e}", None
        finally:
            driver.quit()
        print(f"web {backend}: {status.upper()} {line}", flush=True)
        if auto_line:
            print(auto_line, flush=True)
        failed |= status == "fail"
        if status == "skip":
            continue
        driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        try:
            driver.set_page_load_timeout(TIMEOUT_S)
            status, line = run_app(url, backend, driver)
        except Exception as e:  # noqa: BLE001 - reported as this backend's failure
            status, line = "fail", f"{type(e).__name__}: {e}"
        finally:
            driver.quit()
        print(f"web app {backend}: {status.upper()} {line}", flush=True)
        failed |= status == "fail"
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

# Jupyter server settings for bus_lab, used by `python3 tasks.py lab` (through JUPYTER_CONFIG_PATH),
# by Binder (binder/postBuild appends this file to the environment's jupyter_server_config.py) and by
# the browser tests' server.
#
# Formulas in the app view with no internet: Voilà under the Jupyter server (/voila/render/...) loads
# MathJax from a CDN unless both page-config entries below are empty; then its front end uses the
# MathJax bundled in its own JavaScript, so `$...$` maths renders offline (in a classroom behind a
# firewall, or on a laptop with no network).

c = get_config()  # noqa: F821  (provided by Jupyter when it loads this file)


def _voila_offline_mathjax(page_config, **kwargs):
    page_config["fullMathjaxUrl"] = None
    page_config["mathjaxConfig"] = None
    return page_config


c.VoilaConfiguration.page_config_hook = _voila_offline_mathjax

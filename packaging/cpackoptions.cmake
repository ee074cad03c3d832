# SPDX-License-Identifier: GPL-3.0-or-later
# Read by cpack itself (CPACK_PROJECT_CONFIG_FILE). Each component's Debian description
# starts with its own synopsis; the package-wide summary would be put in front of both.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "")

// SPDX-License-Identifier: GPL-3.0-or-later
// Runs every file of the given folders (or files) once through a fuzz target's entry point:
// the regression check of the fuzz corpora in an ordinary build, without libFuzzer.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <cstdint>
#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

bool runFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(path));
        return false;
    }
    const QByteArray data = file.readAll();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.constData()), size_t(data.size()));
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    int inputs = 0;
    bool ok = argc > 1;
    for (int i = 1; i < argc; ++i) {
        const QString path = QString::fromLocal8Bit(argv[i]);
        if (QFileInfo(path).isDir()) {
            const QFileInfoList files = QDir(path).entryInfoList(QDir::Files, QDir::Name);
            for (const QFileInfo &file : files) {
                ok &= runFile(file.filePath());
                ++inputs;
            }
        } else {
            ok &= runFile(path);
            ++inputs;
        }
    }
    std::printf("%d inputs ran without a crash\n", inputs);
    return ok && inputs > 0 ? 0 : 1;
}

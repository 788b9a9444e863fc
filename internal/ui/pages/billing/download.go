package billing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/theme"
)

// downloadTimeout bounds one PDF download (a slow link may need more than an API call).
const downloadTimeout = 2 * time.Minute

// download is a running PDF download; the client's progress callback writes the
// counters from its goroutine, the view reads them on each tick.
type download struct {
	invoice     string
	path        string
	done, total atomic.Int64
	cancel      context.CancelFunc
}

// downloaded is the result of a finished download.
type downloaded struct {
	Invoice, Path string
	Bytes         int64
}

type downloadTick struct{}

func tick() tea.Cmd {
	return tea.Tick(150*time.Millisecond, func(time.Time) tea.Msg { return downloadTick{} })
}

// defaultFolder is ~/Downloads when it exists, else the working directory.
func defaultFolder() string {
	if home, err := os.UserHomeDir(); err == nil {
		d := filepath.Join(home, "Downloads")
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "."
}

// expandHome turns a leading ~ into the home directory.
func expandHome(p string) string {
	p = strings.TrimSpace(p)
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
	}
	return p
}

// validateFolder checks that the folder exists, is a directory and can be written to
// (by creating and removing a probe file).
func validateFolder(p string) error {
	p = expandHome(p)
	if p == "" {
		return errors.New("folder is required")
	}
	fi, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("folder %s does not exist", p)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", p)
	}
	f, err := os.CreateTemp(p, ".svcui-probe-*")
	if err != nil {
		return fmt.Errorf("folder %s is not writable", p)
	}
	name := f.Name()
	_ = f.Close()
	_ = os.Remove(name)
	return nil
}

// fileName is a safe file name for an invoice number.
func fileName(number string) string {
	clean := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == ':' {
			return '-'
		}
		return r
	}, number)
	clean = strings.Trim(clean, ". ")
	if clean == "" {
		clean = "invoice"
	}
	return clean + ".pdf"
}

// freePath returns dir/name, or dir/name-2.pdf, … when the file already exists.
func freePath(dir, name string) string {
	p := filepath.Join(dir, name)
	base := strings.TrimSuffix(name, ".pdf")
	for i := 2; i < 1000; i++ {
		if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
			return p
		}
		p = filepath.Join(dir, fmt.Sprintf("%s-%d.pdf", base, i))
	}
	return p
}

func (v *Invoices) folderForm(inv models.Invoice) common.Modal {
	folder := defaultFolder()
	field := huh.NewInput().Title("Folder").Description("Invoice " + inv.InvoiceNumber + " is saved there as " + fileName(inv.InvoiceNumber)).
		Value(&folder).Validate(validateFolder)
	return components.NewForm(v.ctx, "Download invoice "+inv.InvoiceNumber, func() tea.Cmd {
		return v.startDownload(inv, expandHome(folder))
	}, huh.NewGroup(field)).Live(field, func() error { return validateFolder(folder) })
}

// startDownload saves the PDF through a temporary file in the folder, renamed when
// complete, so a failed download leaves nothing half-written behind. api.Download never
// sends the API token to the download host.
func (v *Invoices) startDownload(inv models.Invoice, folder string) tea.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), downloadTimeout)
	d := &download{invoice: inv.InvoiceNumber, path: freePath(folder, fileName(inv.InvoiceNumber)), cancel: cancel}
	d.total.Store(-1)
	v.dl = d
	v.SetSize(v.w, v.h)
	api, url := v.ctx.API, inv.DownloadURL
	fetch := common.Fetch(v.req, "download", func(context.Context) (downloaded, error) {
		defer cancel()
		tmp, err := os.CreateTemp(folder, ".svcui-download-*")
		if err != nil {
			return downloaded{}, fmt.Errorf("could not create a file in %s: %w", folder, errors.Unwrap(err))
		}
		n, err := api.Download(ctx, url, tmp, func(done, total int64) {
			d.done.Store(done)
			d.total.Store(total)
		})
		cerr := tmp.Close()
		if err == nil && cerr != nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), d.path)
		}
		if err != nil {
			_ = os.Remove(tmp.Name())
			return downloaded{}, err
		}
		return downloaded{Invoice: d.invoice, Path: d.path, Bytes: n}, nil
	})
	return tea.Batch(common.Info("Downloading invoice "+inv.InvoiceNumber+"…"), fetch, tick())
}

func (v *Invoices) handleDownload(msg any) tea.Cmd {
	switch msg := msg.(type) {
	case downloadTick:
		if v.dl == nil {
			return nil
		}
		return tick() // the view redraws the progress line on each message
	case common.Result[downloaded]:
		if !v.req.Current(msg.Addr) {
			return nil
		}
		v.dl = nil
		v.SetSize(v.w, v.h)
		if msg.Err != nil {
			return common.Error("Download failed: " + v.ctx.ErrorText(msg.Err))
		}
		return common.Success(fmt.Sprintf("Saved invoice %s to %s (%s)", msg.Value.Invoice, msg.Value.Path, sizeText(msg.Value.Bytes)))
	}
	return nil
}

func (d *download) line(ctx *common.Context, width int) string {
	done, total := d.done.Load(), d.total.Load()
	text := "Downloading " + filepath.Base(d.path) + ": " + sizeText(done)
	if total > 0 {
		text += " of " + sizeText(total) + " " + components.Gauge(ctx, float64(done), float64(total), 24)
	}
	return ctx.Styles.Info.Render(truncate(text, width))
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// Opening a link: the system opener when there is one. Variables so tests can replace them.
var (
	lookPath    = exec.LookPath
	startOpener = func(opener, url string) error {
		cmd := exec.Command(opener, url)
		if err := cmd.Start(); err != nil {
			return err
		}
		go func() { _ = cmd.Wait() }() // reap it; the opener returns at once
		return nil
	}
)

func systemOpener() string {
	names := []string{"xdg-open"}
	if runtime.GOOS == "darwin" {
		names = []string{"open"}
	}
	for _, n := range names {
		if p, err := lookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// openLink opens the invoice's PDF with the system opener; without one it says so and
// points at y. The link is never shown: it is a capability.
func openLink(inv models.Invoice) tea.Cmd {
	if inv.DownloadURL == "" {
		return common.Warn("Invoice " + inv.InvoiceNumber + " has no download link")
	}
	opener := systemOpener()
	if opener == "" {
		return common.Warn("No system opener (xdg-open or open) found here; press y to copy the link instead")
	}
	url := inv.DownloadURL
	return func() tea.Msg {
		if err := startOpener(opener, url); err != nil {
			return common.Notify{Level: theme.LevelError, Text: "Could not open invoice " + inv.InvoiceNumber + ": " + filepath.Base(opener) + " failed to start"}
		}
		return common.Notify{Level: theme.LevelSuccess, Text: "Opened invoice " + inv.InvoiceNumber + " with " + filepath.Base(opener)}
	}
}

func truncate(s string, w int) string {
	if w <= 0 || len([]rune(s)) <= w {
		return s
	}
	r := []rune(s)
	return string(r[:max(0, w-1)]) + "…"
}

package billing

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// downloadTimeout bounds one PDF download (a slow link may need more than an API call).
const downloadTimeout = 2 * time.Minute

// A download asks for a folder (proposing ~/Downloads), checks it on the filesystem in
// a command, then saves the PDF in a command. Nothing here touches the filesystem in
// Update, View or a validator.

// folderAsk is a download waiting for its folder.
type folderAsk struct {
	inv    invoice
	folder string // bound to the form's field
	// refused is the folder text the filesystem check refused, and why: the validator
	// (pure) reads it, so the reason shows at the field until the text changes. huh runs
	// validators in commands, hence the lock.
	mu      sync.Mutex
	refused string
	problem error
}

// refuse records the filesystem check's answer for text.
func (a *folderAsk) refuse(text string, why error) {
	a.mu.Lock()
	a.refused, a.problem = text, why
	a.mu.Unlock()
}

// validate is the folder field's check: syntax, and the last filesystem answer for
// exactly this text.
func (a *folderAsk) validate(s string) error {
	switch {
	case strings.TrimSpace(s) == "":
		return errors.New("folder is required")
	case strings.ContainsRune(s, 0):
		return errors.New("a folder name cannot contain a NUL character")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if s == a.refused {
		return a.problem
	}
	return nil
}

// folderProposal is the folder the form starts with; folderChecked a folder that
// exists and can be written to (~ expanded).
type (
	folderProposal struct {
		Path string
		inv  invoice
	}
	folderChecked struct{ Path string }
)

// startDownload is the folder form's answer to its view: the folder passed the check.
type startDownload struct {
	view   int64
	inv    invoice
	folder string
}

func (s startDownload) Target() int64 { return s.view }

// folderModal is the folder form. It stays open while the folder is checked (in a
// command whose answer is addressed to it, so no close and reopen can cross), shows the
// reason at the field when the check refuses, and closes only to start the download.
type folderModal struct {
	*components.Form
	req     *common.Requests
	ask     *folderAsk
	view    int64
	pending tea.Cmd // the check the form's submit asked for
	// checking: the check runs (the form closed itself on submit, the modal stays);
	// done: the folder is good and the download starts.
	checking, done bool
}

func (v *Invoices) folderModal(inv invoice, folder string) *folderModal {
	m := &folderModal{req: common.NewRequests(), ask: &folderAsk{inv: inv, folder: folder}, view: v.ID()}
	a := m.ask
	field := huh.NewInput().Title("Folder").Description("Invoice " + inv.InvoiceNumber + " is saved there as " + fileName(inv.InvoiceNumber)).
		Value(&a.folder).Validate(a.validate)
	m.Form = components.NewForm(v.Ctx, "Download invoice "+inv.InvoiceNumber, func() tea.Cmd {
		folder := a.folder
		m.pending = common.Fetch(m.req, kindCheck, func(context.Context) (folderChecked, error) {
			p, err := checkFolder(folder)
			return folderChecked{p}, err
		})
		return nil
	}, huh.NewGroup(field)).Live(field, func() error { return a.validate(a.folder) })
	return m
}

// ID addresses the check's answer to the form.
func (m *folderModal) ID() int64 { return m.req.ID }

// Closed: the form's own close on submit does not end this modal; the folder check
// does, once the folder is good.
func (m *folderModal) Closed() bool { return m.done || m.Form.Closed() && !m.checking }

func (m *folderModal) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if r, ok := msg.(common.Result[folderChecked]); ok {
		if !m.req.Current(r.Addr) {
			return m, nil
		}
		if r.Err != nil {
			// The reason shows at the field; enter is refused until the folder changes.
			m.ask.refuse(m.ask.folder, r.Err)
			m.checking = false
			m.Rebuild() // as typed; this stays the open modal
			return m, m.Init()
		}
		m.done = true
		return m, common.Send(startDownload{view: m.view, inv: m.ask.inv, folder: r.Value.Path})
	}
	_, cmd := m.Form.Update(msg)
	if p := m.pending; p != nil {
		// Submitted: the form's own close is dropped, the check decides.
		m.pending, m.checking = nil, true
		return m, p
	}
	return m, cmd
}

// download is a running PDF download; the client's progress callback writes the
// counters from its goroutine, the view reads them on each tick.
type download struct {
	invoice, file string
	done, total   atomic.Int64
	cancel        context.CancelFunc
}

// downloaded is the result of a finished download.
type downloaded struct {
	Invoice, Path string
	Bytes         int64
}

type downloadTick struct{}

func (v *Invoices) tick() tea.Cmd { return v.Ctx.After(150*time.Millisecond, downloadTick{}) }

// askFolder starts a download: the proposed folder is found in a command, then the
// form opens.
func (v *Invoices) askFolder(inv invoice) tea.Cmd {
	if v.dl != nil {
		return common.Warn("A download is already running; wait for it to finish")
	}
	if inv.DownloadURL == "" {
		return common.Warn("Invoice " + inv.InvoiceNumber + " has no download link")
	}
	return common.Fetch(v.Req, kindFolder, func(context.Context) (folderProposal, error) {
		return folderProposal{defaultFolder(), inv}, nil
	})
}

func (v *Invoices) handleDownload(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[folderProposal]:
		if !v.Req.Current(msg.Addr) {
			return nil
		}
		return v.Ctx.Open(v.folderModal(msg.Value.inv, msg.Value.Path))
	case startDownload:
		if v.dl != nil {
			return common.Warn("A download is already running; wait for it to finish")
		}
		return v.startDownload(msg.inv, msg.folder)
	case downloadTick:
		if v.dl == nil {
			return nil
		}
		return v.tick() // the view redraws the progress line on each message
	case common.Result[downloaded]:
		if !v.Req.Current(msg.Addr) {
			return nil
		}
		v.dl = nil
		v.SetSize(v.w, v.h)
		if msg.Err != nil {
			return common.Error("Download failed: " + v.Ctx.ErrorText(msg.Err))
		}
		return common.Success(fmt.Sprintf("Saved invoice %s to %s (%s)", msg.Value.Invoice, msg.Value.Path, sizeText(msg.Value.Bytes)))
	}
	return nil
}

// startDownload saves the PDF through a temporary file in the folder, renamed when
// complete, so a failed download leaves nothing half-written behind. api.Download never
// sends the API token to the download host.
func (v *Invoices) startDownload(inv invoice, folder string) tea.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), downloadTimeout)
	d := &download{invoice: inv.InvoiceNumber, file: fileName(inv.InvoiceNumber), cancel: cancel}
	d.total.Store(-1)
	v.dl = d
	v.SetSize(v.w, v.h)
	api, url := v.Ctx.API, inv.DownloadURL
	fetch := common.Fetch(v.Req, kindDownload, func(context.Context) (downloaded, error) {
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
		path := freePath(folder, d.file)
		if err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if err != nil {
			_ = os.Remove(tmp.Name())
			return downloaded{}, err
		}
		return downloaded{Invoice: d.invoice, Path: path, Bytes: n}, nil
	})
	return common.Working("Downloading invoice "+inv.InvoiceNumber+"…", tea.Batch(fetch, v.tick()))
}

func (d *download) line(ctx *common.Context, width int) string {
	done, total := d.done.Load(), d.total.Load()
	text := "Downloading " + d.file + ": " + sizeText(done)
	if total > 0 {
		text += " of " + sizeText(total) + " " + components.Gauge(ctx, float64(done), float64(total), 24)
	}
	return ctx.Styles.Info.Render(truncate(text, width))
}

// The filesystem side: these run inside commands only.

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

// checkFolder checks that the folder exists, is a directory and can be written to (by
// creating and removing a probe file); it returns the folder with ~ expanded.
func checkFolder(p string) (string, error) {
	p = expandHome(p)
	fi, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("folder %s does not exist", p)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a folder", p)
	}
	f, err := os.CreateTemp(p, ".svcui-probe-*")
	if err != nil {
		return "", fmt.Errorf("folder %s is not writable", p)
	}
	name := f.Name()
	_ = f.Close()
	_ = os.Remove(name)
	return p, nil
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

func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func truncate(s string, w int) string {
	if w <= 0 || len([]rune(s)) <= w {
		return s
	}
	r := []rune(s)
	return string(r[:max(0, w-1)]) + "…"
}

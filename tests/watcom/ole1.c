/* ole1.c: an OLE 1.0 client and server on a machine where no other OLE
 * program runs (tests/win16_exports31.rs). Each line: a step and the
 * OLESTATUS it returned, as OLE.H numbers them. */
#include <windows.h>
#include <ole.h>
#include <shellapi.h>
#include <string.h>

static char buf[200];
static void say(void) { OutputDebugString(buf); }

static OLECLIENTVTBL cvt;
static OLECLIENT client = { &cvt };
static OLESERVERVTBL svt;
static OLESERVER server = { &svt };
static OLESERVERDOCVTBL dvt;
static OLESERVERDOC sdoc = { &dvt };

static HGLOBAL block(LPCSTR data, int n)
{
    HGLOBAL h = GlobalAlloc(GMEM_MOVEABLE | GMEM_DDESHARE, n);
    LPSTR p = GlobalLock(h);
    _fmemcpy(p, data, n);
    GlobalUnlock(h);
    return h;
}

int PASCAL WinMain(HINSTANCE inst, HINSTANCE prev, LPSTR cmd, int show)
{
    LHCLIENTDOC doc = 0, doc2;
    LHSERVER lhs = 0;
    LHSERVERDOC lhd = 0;
    LPOLEOBJECT obj = (LPOLEOBJECT)1L;
    HKEY key;
    BOOL more = 7;
    HDC mdc;
    OLESTATUS s1, s2, s3;

    wsprintf(buf, "version %08lX %08lX", OleQueryClientVersion(), OleQueryServerVersion());
    say();
    s1 = OleRegisterClientDoc("OleTest", "UNTITLED", 0L, &doc);
    wsprintf(buf, "registerdoc %d %d", s1, doc != 0);
    say();
    s1 = OleQueryCreateFromClip("StdFileEditing", olerender_draw, 0);
    s2 = OleQueryLinkFromClip("StdFileEditing", olerender_draw, 0);
    s3 = OleQueryCreateFromClip("Static", olerender_draw, 0);
    wsprintf(buf, "emptyclip %d %d %d link-static %d other %d", s1, s2, s3,
             OleQueryLinkFromClip("Static", olerender_draw, 0),
             OleQueryCreateFromClip("Foo", olerender_draw, 0));
    say();

    OpenClipboard(NULL);
    EmptyClipboard();
    SetClipboardData(RegisterClipboardFormat("Native"), block("xyz", 3));
    SetClipboardData(RegisterClipboardFormat("OwnerLink"), block("TestDraw\0A.TDR\0\0\0", 17));
    CloseClipboard();
    s1 = OleQueryCreateFromClip("StdFileEditing", olerender_draw, 0);
    s2 = OleQueryLinkFromClip("StdFileEditing", olerender_draw, 0);
    s3 = OleQueryCreateFromClip("StdFileEditing", olerender_format, CF_TEXT);
    wsprintf(buf, "ownerclip %d %d %d option %d", s1, s2, s3,
             OleQueryCreateFromClip("StdFileEditing", 7, 0));
    say();
    s1 = OleCreateFromClip("StdFileEditing", &client, doc, "obj1", &obj, olerender_draw, 0);
    wsprintf(buf, "fromclip %d %d", s1, obj == NULL);
    say();

    obj = (LPOLEOBJECT)1L;
    s1 = OleCreate("StdFileEditing", &client, "TestDraw", doc, "obj2", &obj, olerender_draw, 0);
    RegCreateKey(HKEY_CLASSES_ROOT, "TestDraw", &key);
    RegSetValue(key, "protocol\\StdFileEditing\\server", REG_SZ, "testdraw.exe", 12);
    RegCloseKey(key);
    s2 = OleCreate("StdFileEditing", &client, "TestDraw", doc, "obj2", &obj, olerender_draw, 0);
    s3 = OleCreate("StdFileEditing", &client, "TestDraw", 12345L, "obj2", &obj, olerender_draw, 0);
    wsprintf(buf, "create %d %d %d %d static %d", s1, s2, s3, obj == NULL,
             OleCreate("Static", &client, "TestDraw", doc, "obj3", &obj, olerender_draw, 0));
    say();
    s1 = OleCreateFromClip("StdFileEditing", &client, doc, "obj1", &obj, olerender_draw, 0);
    wsprintf(buf, "fromclip-registered %d", s1);
    say();

    obj = (LPOLEOBJECT)1L;
    s1 = OleEnumObjects(doc, &obj);
    wsprintf(buf, "enum %d %d", s1, obj == NULL);
    say();
    s1 = OleRenameClientDoc(doc, "C:\\LETTER.TST");
    s2 = OleSavedClientDoc(doc);
    s3 = OleRevertClientDoc(doc);
    wsprintf(buf, "doc %d %d %d", s1, s2, s3);
    say();
    s1 = OleRevokeClientDoc(doc);
    s2 = OleRevokeClientDoc(doc);
    OleRegisterClientDoc("OleTest", "SECOND", 0L, &doc2);
    wsprintf(buf, "revoke %d %d new %d", s1, s2, doc2 != doc && doc2 != 0);
    say();

    s1 = OleRegisterServer("NoSuchClass", &server, &lhs, inst, OLE_SERVER_MULTI);
    s2 = OleRegisterServer("TestDraw", &server, &lhs, inst, OLE_SERVER_MULTI);
    {
        LHSERVER pb = 0;
        s3 = OleRegisterServer("PBrush", &server, &pb, inst, OLE_SERVER_SINGLE);
        wsprintf(buf, "server %d %d %d pbrush %d %d", s1, s2, lhs != 0, s3, OleRevokeServer(pb));
        say();
    }
    s1 = OleRegisterServerDoc(lhs, "PICTURE.BMP", &sdoc, &lhd);
    s2 = OleRenameServerDoc(lhd, "OTHER.BMP");
    s3 = OleSavedServerDoc(lhd);
    wsprintf(buf, "serverdoc %d %d %d %d revert %d", s1, lhd != 0, s2, s3, OleRevertServerDoc(lhd));
    say();
    s1 = OleBlockServer(lhs);
    s2 = OleUnblockServer(lhs, &more);
    wsprintf(buf, "block %d %d more %d", s1, s2, more);
    say();
    s1 = OleRevokeServer(lhs);
    s2 = OleRevokeServerDoc(lhd);
    s3 = OleRevokeServer(lhs);
    wsprintf(buf, "revokeserver %d %d %d", s1, s2, s3);
    say();

    mdc = CreateMetaFile(NULL);
    wsprintf(buf, "object %d %d meta %d %d", OleDelete((LPOLEOBJECT)&client),
             OleQueryOpen((LPOLEOBJECT)&client), OleIsDcMeta(mdc), OleIsDcMeta(GetDC(NULL)));
    say();
    DeleteMetaFile(CloseMetaFile(mdc));
    return 0;
}
